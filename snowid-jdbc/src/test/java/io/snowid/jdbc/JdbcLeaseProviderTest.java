package io.snowid.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import io.snowid.Snowflake;
import io.snowid.TimeSource;
import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseCoordinators;
import io.snowid.lease.LeaseOptions;
import io.snowid.node.NodeIdUnavailableException;
import io.snowid.node.NodeLease;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The JDBC provider: URIs as users write them, credentials, the table's creation and checks, and
 * the entry point for an application's own DataSource.
 */
class JdbcLeaseProviderTest {
  private final String table = TestDatabase.uniqueTable();
  private final List<AutoCloseable> opened = new ArrayList<>();

  @AfterEach
  void cleanUp() throws Exception {
    for (int i = opened.size() - 1; i >= 0; i--) {
      opened.get(i).close();
    }
    for (TestDatabase db : TestDatabase.inThisRun()) {
      db.drop(table);
    }
  }

  @Test
  void supports_jdbcUrlsOfTheFourDatabasesOnly() {
    JdbcLeaseProvider p = new JdbcLeaseProvider();
    assertThat(p.supports("jdbc:postgresql://db:5432/app")).isTrue();
    assertThat(p.supports("jdbc:mariadb://db/app")).isTrue();
    assertThat(p.supports("jdbc:mysql://db/app")).isTrue();
    assertThat(p.supports("jdbc:h2:mem:x")).isTrue();
    assertThat(p.supports("jdbc:oracle:thin:@db:1521/app")).isFalse();
    assertThat(p.supports("redis://db")).isFalse();
    assertThat(LeaseCoordinators.provider("jdbc:postgresql://127.0.0.1/test"))
        .isInstanceOf(JdbcLeaseProvider.class);
  }

  /** docs/fleet.md's URL, as written (with a table of this test's own, created on first use). */
  @Tag("integration")
  @ParameterizedTest
  @EnumSource(
      value = TestDatabase.class,
      names = {"POSTGRESQL", "MARIADB"})
  void nodeSource_urlWithLeaseOptionsInTheSameQuery_issuesIds(TestDatabase db) throws Exception {
    db.createInService(table);
    String node = db.url() + "&namespace=orders&ttl=3s&table=" + table;
    try (Snowflake gen = Snowflake.builder().layout("twitter").nodeSource(node).build()) {
      long first = gen.nextId();
      assertThat(gen.nextId()).isGreaterThan(first);
      assertThat(gen.nodeStatus().source())
          .startsWith(JdbcSettings.describeUrl(db.url()) + "?table=" + table + " node id ");
    }
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT namespace, token FROM "
                    + table
                    + " WHERE node_id >= 0 AND namespace <> 'in-service'")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).startsWith("orders.");
      assertThat(rs.getString(2)).as("released on close").isNull();
    }
  }

  @Test
  void parse_snowidsOptions_neverReachTheUrlAndCredentialsNeverTheDescription() {
    JdbcSettings s =
        JdbcSettings.parse(
            "jdbc:postgresql://db.internal:5432/app?user=app&password=s3cr%40t&sslmode=require"
                + "&table=ids.leases&create=true");

    assertThat(s.url())
        .isEqualTo(
            "jdbc:postgresql://db.internal:5432/app?user=app&password=s3cr%40t&sslmode=require");
    assertThat(s.scrub("auth failed for s3cr%40t / s3cr@t")).doesNotContain("s3cr");
    assertThat(s.driverParameters()).containsExactly("user", "password", "sslmode");
    assertThat(s.table()).isEqualTo("ids.leases");
    assertThat(s.create()).isTrue();
    assertThat(s.describe()).isEqualTo("jdbc:postgresql://db.internal:5432/app?table=ids.leases");
    assertThat(s.scrub("auth failed for s3cr@t and s3cr%40t"))
        .isEqualTo("auth failed for *** and ***");
    assertThat(JdbcSettings.parse("jdbc:mariadb://app:pw-123@db:3306/app").describe())
        .isEqualTo("jdbc:mariadb://db:3306/app");
    JdbcSettings h2 = JdbcSettings.parse("jdbc:h2:tcp://db/ids;USER=sa;PASSWORD=h2-secret");
    assertThat(h2.describe()).isEqualTo("jdbc:h2:tcp://db/ids");
    assertThat(h2.scrub("PASSWORD=h2-secret")).doesNotContain("h2-secret");
  }

  /** A misspelt option of snowid's would go to the driver unnoticed: it is refused. */
  @Test
  void unknownParameters_neitherSnowidsNorTheDrivers_areRefused() throws Exception {
    String url =
        "jdbc:postgresql://127.0.0.1:5432/test?user=postgres&namepsace=orders&sslmode=disable";
    JdbcSettings s = JdbcSettings.parse(url);

    assertThatThrownBy(() -> DriverParameters.require(s, java.sql.DriverManager.getDriver(s.url())))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("node = namepsace is invalid")
        .hasMessageEndingWith("; did you mean namespace?");
  }

  @Tag("integration")
  @Test
  void open_wrongPassword_failsWithoutShowingIt() {
    assertThatThrownBy(
            () ->
                LeaseCoordinators.lease(
                    "jdbc:mariadb://127.0.0.1:3306/test?user=root&password=s3cr3t-pw&namespace=x",
                    Layout.twitter(),
                    Map.of(),
                    TimeSource.monotonic()))
        .isInstanceOf(NodeIdUnavailableException.class)
        .hasMessageContaining(
            "MariaDB/MySQL at jdbc:mariadb://127.0.0.1:3306/test cannot be reached")
        .hasMessageContaining("Access denied")
        .hasMessageNotContaining("s3cr3t-pw");
  }

  @Test
  void open_nothingListening_nodeIdUnavailable() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    assertThatThrownBy(
            () -> LeaseCoordinators.open("jdbc:postgresql://127.0.0.1:" + port + "/test"))
        .isInstanceOf(NodeIdUnavailableException.class)
        .hasMessageContaining(
            "PostgreSQL at jdbc:postgresql://127.0.0.1:" + port + "/test cannot be reached");
  }

  @Test
  void open_badOptionValues_namedWithTheirRange() {
    assertThatThrownBy(() -> LeaseCoordinators.open("jdbc:h2:mem:x?table=1leases"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("table = 1leases is invalid");
    assertThatThrownBy(() -> LeaseCoordinators.open("jdbc:h2:mem:x?create=yes"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("create = yes is invalid; allowed: true or false");
  }

  /** jdbc:mysql: is the MariaDB driver's only with its permitMysqlScheme parameter. */
  @Tag("integration")
  @Test
  void open_mysqlSchemeWithoutADriverForIt_namesTheFix() {
    assertThatThrownBy(() -> LeaseCoordinators.open("jdbc:mysql://127.0.0.1:3306/test?user=root"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("node = jdbc:mysql://127.0.0.1:3306/test is invalid")
        .hasMessageContaining("permitMysqlScheme");
    TestDatabase.MARIADB.createInService(table);
    try (LeaseCoordinator c =
        LeaseCoordinators.open(
            "jdbc:mysql://127.0.0.1:3306/test?user=root&permitMysqlScheme&table=" + table)) {
      assertThat(c.describe()).isEqualTo("jdbc:mysql://127.0.0.1:3306/test?table=" + table);
    }
  }

  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void open_tableMissing_leaseTableExceptionWithTheDdlToRun(TestDatabase db) {
    assertThatThrownBy(() -> LeaseCoordinators.open(db.uri(table, "")))
        .isInstanceOfSatisfying(
            LeaseTableException.class,
            e -> {
              assertThat(e.table()).isEqualTo(table);
              assertThat(e.ddl()).isEqualTo(db.ddl(table));
              assertThat(e.getMessage())
                  .startsWith("lease table " + table + " on ")
                  .contains("does not exist; create it with: CREATE TABLE IF NOT EXISTS " + table)
                  .contains("PRIMARY KEY (namespace, node_id)")
                  .contains("add create=true")
                  .doesNotContain("\n");
            });
  }

  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void open_createTrue_createsTheTableWithoutRows(TestDatabase db) throws Exception {
    LeaseCoordinators.open(db.uri(table, "&create=true")).close();
    LeaseCoordinators.open(db.uri(table, "")).close(); // it exists now

    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getLong(1))
          .as("no rows: a namespace's row comes with its first holder")
          .isZero();
    }
  }

  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void open_tableOfAnotherKind_refusedNamingTheTable(TestDatabase db) {
    db.execute("CREATE TABLE " + table + " (namespace VARCHAR(10), node_id BIGINT)");
    assertThatThrownBy(() -> LeaseCoordinators.open(db.uri(table, "&create=true")))
        .isInstanceOf(LeaseTableException.class)
        .hasMessageContaining("lease table " + table)
        .hasMessageContaining("is not snowid's lease table");
  }

  @Tag("integration")
  @Test
  void open_mariaDbTableWithoutTransactions_refused() {
    TestDatabase db = TestDatabase.MARIADB;
    db.execute(db.ddl(table).replace("ENGINE = InnoDB", "ENGINE = MyISAM"));
    assertThatThrownBy(() -> LeaseCoordinators.open(db.uri(table, "")))
        .isInstanceOf(LeaseTableException.class)
        .hasMessageContaining("uses the engine MyISAM")
        .hasMessageContaining("ALTER TABLE " + table + " ENGINE = InnoDB");
  }

  /**
   * An application's pool: the coordinator leases through it, reads the database from it, and
   * leaves it open when closed.
   */
  @Tag("integration")
  @ParameterizedTest
  @EnumSource(
      value = TestDatabase.class,
      names = {"POSTGRESQL", "MARIADB"})
  void openDataSource_applicationsPool_leasesAndLeavesThePoolOpen(TestDatabase db)
      throws Exception {
    HikariConfig config = new HikariConfig();
    // PostgreSQL trusts this host whatever the password; MariaDB's root has none
    config.setJdbcUrl(db.url() + (db == TestDatabase.POSTGRESQL ? "&password=app-secret-pw" : ""));
    config.setMaximumPoolSize(2);
    HikariDataSource pool = new HikariDataSource(config);
    opened.add(pool);

    LeaseCoordinator c =
        JdbcLeaseProvider.open(pool, "?table=" + table + "&create=true&namespace=ignored-here");
    // the URL its driver reports (MariaDB's leaves the default port out), without the query
    assertThat(c.describe())
        .startsWith(db.url().substring(0, db.url().indexOf("//") + 2) + "127.0.0.1")
        .endsWith("/test?table=" + table)
        .doesNotContain("app-secret-pw")
        .doesNotContain("user=");
    NodeLease lease =
        LeaseCoordinators.lease(
            c,
            LeaseOptions.parse(
                "app?namespace=orders&ttl=2s&maxTtl=2s&maxSkew=1s", Duration.ofSeconds(10)),
            Layout.twitter(),
            Map.of(),
            TimeSource.monotonic());
    try (Snowflake gen = Snowflake.builder().lease(lease).build()) {
      assertThat(gen.nextId()).isPositive();
    }
    lease.close();
    c.close();

    assertThat(pool.isClosed()).isFalse();
    try (Connection conn = pool.getConnection();
        Statement s = conn.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table + " WHERE node_id >= 0")) {
      rs.next();
      assertThat(rs.getLong(1)).isEqualTo(1);
    }
  }

  @Test
  void openDataSource_h2_dialectFromTheMetadata() {
    JdbcDataSource h2 = new JdbcDataSource();
    h2.setURL("jdbc:h2:mem:snowid-datasource;DB_CLOSE_DELAY=-1");
    try (LeaseCoordinator c = JdbcLeaseProvider.open(h2, "table=" + table + "&create=true")) {
      assertThat(c.describe()).isEqualTo("jdbc:h2:mem:snowid-datasource?table=" + table);
    }
  }

  @Test
  void openDataSource_unknownOption_namedWithTheAllowedOnes() {
    JdbcDataSource h2 = new JdbcDataSource();
    h2.setURL("jdbc:h2:mem:snowid-datasource;DB_CLOSE_DELAY=-1");
    assertThatThrownBy(() -> JdbcLeaseProvider.open(h2, "tabel=x"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage(
            "options = tabel is invalid; allowed: table=NAME, create=true|false and snowid's lease"
                + " options; did you mean table?");
    assertThatThrownBy(() -> JdbcLeaseProvider.open(null, ""))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("dataSource = null is invalid");
  }
}
