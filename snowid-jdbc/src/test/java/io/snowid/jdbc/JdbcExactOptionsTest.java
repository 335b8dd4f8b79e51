package io.snowid.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import io.snowid.TimeSource;
import io.snowid.lease.LeaseCoordinators;
import io.snowid.node.NodeLease;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A jdbc: URI's query holds snowid's options and the driver's parameters, nothing else and nothing
 * twice: a misspelt {@code namespace=} is refused (naming what it misspells) instead of reaching
 * the driver, which ignores it, while the process leases in the default namespace. Found before
 * anything is opened: no table is created, no lease row written.
 */
class JdbcExactOptionsTest {
  private final String table = TestDatabase.uniqueTable();

  @TempDir Path tmp;

  @AfterEach
  void dropTable() {
    for (TestDatabase db : TestDatabase.inThisRun()) {
      db.drop(table);
    }
  }

  /** Every misspelt option, on every database: the misspelling and the option meant. */
  static Stream<Arguments> misspelt() {
    List<Arguments> all = new ArrayList<>();
    String[][] typos = {
      {"namepsace=orders", "namepsace", "namespace"},
      {"Namespace=orders", "Namespace", "namespace"},
      {"tll=5s", "tll", "ttl"},
      {"skwe=1s", "skwe", "skew"},
      {"startwait=1m", "startwait", "startWait"},
      {"instanse=a", "instanse", "instance"},
      {"feilds=worker", "feilds", "fields"},
      {"renwe=1s", "renwe", "renew"},
      {"tabel=other", "tabel", "table"},
      {"craete=true", "craete", "create"},
    };
    for (TestDatabase db : TestDatabase.values()) {
      for (String[] t : typos) {
        all.add(Arguments.of(db, t[0], t[1], t[2]));
      }
    }
    return all.stream().filter(TestDatabase::rowInThisRun);
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("misspelt")
  void lease_misspeltOption_refusedNamingItAndTheTableNotCreated(
      TestDatabase db, String option, String key, String meant) {
    String uri = db.uri(table, "&create=true&ttl=2s&" + option);

    assertThatThrownBy(() -> lease(uri))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("node = " + key + " is invalid; allowed: snowid's options")
        .hasMessageEndingWith("; did you mean " + meant + "?");
    assertThat(tableExists(db)).as("table created").isFalse();
  }

  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void lease_misspeltNamespaceOnATableInService_writesNoRowThenSpeltRightLeases(TestDatabase db)
      throws SQLException {
    db.createInService(table);

    assertThatThrownBy(() -> lease(db.uri(table, "&ttl=2s&namepsace=orders")))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("did you mean namespace?");
    assertThat(leaseRows(db)).isEmpty();

    lease(db.uri(table, "&ttl=2s&namespace=orders")).close();
    assertThat(leaseRows(db)).singleElement().asString().startsWith("orders");
  }

  static Stream<Arguments> repeated() {
    List<Arguments> all = new ArrayList<>();
    String[][] repeats = {
      {"ttl=5s&ttl=9s", "ttl"},
      {"namespace=a&namespace=b", "namespace"},
      {"fields=worker&fields=datacenter", "fields"},
      {"create=true&create=false", "create"},
      {"table=other&table=other", "table"},
    };
    for (TestDatabase db : TestDatabase.values()) {
      for (String[] r : repeats) {
        all.add(Arguments.of(db, r[0], r[1]));
      }
    }
    all.add(Arguments.of(TestDatabase.POSTGRESQL, "user=postgres", "user"));
    all.add(Arguments.of(TestDatabase.MARIADB, "user=root", "user"));
    // MariaDB reads parameter names whatever their case: the second one would win silently
    all.add(Arguments.of(TestDatabase.MARIADB, "USER=nobody", "USER"));
    all.add(
        Arguments.of(
            TestDatabase.MARIADB,
            "sessionVariables=wait_timeout=100&SESSIONVARIABLES=wait_timeout=5",
            "SESSIONVARIABLES"));
    return all.stream().filter(TestDatabase::rowInThisRun);
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("repeated")
  void lease_optionGivenTwice_refusedNamingItAndTheTableNotCreated(
      TestDatabase db, String query, String option) {
    String uri = db.uri(table, "&create=true&" + query);

    assertThatThrownBy(() -> lease(uri))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining(option + " is given twice");
    assertThat(tableExists(db)).as("table created").isFalse();
  }

  /** The parameters each driver takes work, as each driver compares their names. */
  @Tag("integration")
  @ParameterizedTest
  @EnumSource(
      value = TestDatabase.class,
      names = {"POSTGRESQL", "MARIADB"})
  void open_driversOwnParameters_accepted(TestDatabase db) {
    String params =
        db == TestDatabase.POSTGRESQL
            ? "&sslmode=disable&connectTimeout=5&ApplicationName=snowid-test&password=x"
            // MariaDB compares names ignoring case, and takes some it does not list
            : "&connecttimeout=5000&useSsl=false&nullCatalogMeansCurrent=true&permitMysqlScheme";

    LeaseCoordinators.open(db.uri(table, "&create=true" + params)).close();

    assertThat(tableExists(db)).isTrue();
  }

  /** pgjdbc reads its parameters by their exact names: SSLMODE would be ignored. */
  @Test
  void open_postgresParameterInAnotherCase_refusedWithItsName() {
    assertThatThrownBy(
            () -> LeaseCoordinators.open(TestDatabase.POSTGRESQL.uri(table, "&SSLMODE=disable")))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("node = SSLMODE is invalid")
        .hasMessageContaining(
            "the parameters the PostgreSQL driver org.postgresql.Driver declares;")
        .hasMessageEndingWith("; did you mean sslmode?");
    assertThatThrownBy(
            () -> LeaseCoordinators.open(TestDatabase.POSTGRESQL.uri(table, "&sslmod=disable")))
        .hasMessageEndingWith("; did you mean sslmode?");
  }

  /** Without a driver for the URL a misspelling of snowid's options is named first. */
  @Test
  void open_noDriverForTheUrl_misspeltOptionNamedBeforeTheMissingDriver() {
    String mysql = "jdbc:mysql://127.0.0.1:3306/test?user=root&table=" + table;

    assertThatThrownBy(() -> LeaseCoordinators.open(mysql + "&tabel=x"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("node = tabel is invalid; allowed: snowid's options")
        .hasMessageContaining("and the parameters the MariaDB/MySQL driver declares")
        .hasMessageEndingWith("; did you mean table?");
    assertThatThrownBy(() -> LeaseCoordinators.open(mysql + "&useSSL=false"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("node = jdbc:mysql://127.0.0.1:3306/test")
        .hasMessageContaining("needs MySQL Connector/J");
  }

  /** H2 reads no query: a parameter there would only become part of the database's name. */
  @Test
  void open_h2QueryParameterNotSnowids_refusedPointingToItsSettings() {
    assertThatThrownBy(
            () -> LeaseCoordinators.open("jdbc:h2:mem:snowid-exact?USER=sa&table=" + table))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("node = USER is invalid; allowed: snowid's options namespace,")
        .hasMessageContaining("its own settings follow ; in the URL");
  }

  @Test
  void open_h2SettingMisspeltAfterSemicolon_refusedBeforeTheDatabaseIsCreated() throws Exception {
    Path db = tmp.resolve("ids");
    String url = "jdbc:h2:" + db + ";NAMEPSACE=orders?create=true&table=" + table;

    assertThatThrownBy(() -> LeaseCoordinators.open(url))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("node = NAMEPSACE is invalid; allowed: H2's own settings after ;")
        .hasMessageEndingWith("; did you mean namespace?");
    assertThatThrownBy(() -> LeaseCoordinators.open(url.replace("NAMEPSACE", "namespace")))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("node = namespace is invalid")
        .hasMessageContaining("in the query (?namespace=NAME&table=NAME)");
    try (Stream<Path> files = Files.list(tmp)) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  void openDataSource_optionGivenTwice_refused() {
    JdbcDataSource h2 = new JdbcDataSource();
    h2.setURL("jdbc:h2:mem:snowid-exact;DB_CLOSE_DELAY=-1");

    assertThatThrownBy(() -> JdbcLeaseProvider.open(h2, "table=" + table + "&table=" + table))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("node = table is invalid; allowed: each parameter once (table is given twice)");
    assertThatThrownBy(() -> JdbcLeaseProvider.open(h2, "create=true&ttl=1s&ttl=2s"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("ttl is given twice");
    assertThat(tableExists(TestDatabase.H2)).isFalse();
  }

  private static NodeLease lease(String uri) {
    return LeaseCoordinators.lease(uri, Layout.twitter(), Map.of(), TimeSource.monotonic());
  }

  private boolean tableExists(TestDatabase db) {
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
      return rs.next();
    } catch (SQLException e) {
      return false;
    }
  }

  /** The namespaces of the table's lease rows (not a namespace's own row, nor in-service's). */
  private List<String> leaseRows(TestDatabase db) throws SQLException {
    List<String> namespaces = new ArrayList<>();
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT namespace FROM "
                    + table
                    + " WHERE node_id >= 0 AND namespace <> 'in-service'")) {
      while (rs.next()) {
        namespaces.add(rs.getString(1));
      }
    }
    return namespaces;
  }
}
