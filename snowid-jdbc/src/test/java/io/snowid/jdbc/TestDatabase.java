package io.snowid.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The databases of the tests: the shared PostgreSQL (127.0.0.1:5432, database {@code test}) and
 * MariaDB (127.0.0.1:3306, database {@code test}), never stopped, and an embedded H2 in this JVM.
 * Every test works in a table of its own ({@link #uniqueTable()}) and drops it afterwards. A test
 * over several databases takes them from {@link #inThisRun()}: the fast tier runs it on H2 alone,
 * the integration tier on all three.
 */
enum TestDatabase {
  POSTGRESQL("jdbc:postgresql://127.0.0.1:5432/test?user=postgres"),
  MARIADB("jdbc:mariadb://127.0.0.1:3306/test?user=root"),
  H2("jdbc:h2:mem:snowid-tests;DB_CLOSE_DELAY=-1");

  private final String url;

  TestDatabase(String url) {
    this.url = url;
  }

  /** The JDBC URL, without snowid's options. */
  String url() {
    return url;
  }

  /** A lease URI of a table, with more options ({@code "&namespace=x&ttl=2s"}, or ""). */
  String uri(String table, String options) {
    return url + (url.contains("?") ? "&" : "?") + "table=" + table + options;
  }

  /** The DDL of a lease table, as shipped for this database. */
  String ddl(String table) {
    return Dialect.ofUrl(url).ddl(table);
  }

  /**
   * The databases of this run, the method source of tests over several: H2 alone in the fast tier
   * ({@code ./mvnw verify}, whose surefire excludes the tag {@code integration} and passes that on
   * as {@code snowid-tests.excluded-groups}), since PostgreSQL and MariaDB are servers, the
   * integration tier's; all three with {@code -Pit} and outside Maven.
   */
  static List<TestDatabase> inThisRun() {
    String excluded = System.getProperty("snowid-tests.excluded-groups", "");
    return excluded.contains("integration") ? List.of(H2) : List.of(values());
  }

  /** Whether a row of arguments is for a database of this run (its first argument). */
  static boolean rowInThisRun(Arguments row) {
    return inThisRun().contains((TestDatabase) row.get()[0]);
  }

  static String uniqueTable() {
    return "snowid_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  }

  Connection connect() throws SQLException {
    return DriverManager.getConnection(url);
  }

  /** Runs statements on a connection of its own. */
  void execute(String... statements) {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Creates a lease table (through the coordinator, with create=true) and puts it in service, as a
   * table that has been used for an hour and written just now: its registry row (namespace {@code
   * ''}: no loss found, the default maxTtl asked before), a namespace {@code in-service} created an
   * hour ago with the default limits, and its one id row, released, renewed now. The first holders
   * of a new namespace do not wait then (the tests of a new table cover that wait), as long as some
   * row of the table was written within maxTtl (30 s by default).
   */
  void createInService(String table) {
    JdbcLeaseCoordinator.open(uri(table, "&create=true")).close();
    String now = Dialect.ofUrl(url).now;
    execute(
        "INSERT INTO "
            + table
            + " ("
            + LeaseSql.COLUMNS
            + ") VALUES ('', -1, '', '', NULL, NULL, NULL, NULL, "
            + now
            + " - 3600000, "
            + now
            + " - 3600000, 30000, NULL, NULL, NULL)",
        "INSERT INTO "
            + table
            + " ("
            + LeaseSql.COLUMNS
            + ") VALUES ('in-service', -1, '', '', NULL, NULL, NULL, NULL, "
            + now
            + " - 3600000, "
            + now
            + " - 3600000, 30000, 5000, 1, NULL)",
        "INSERT INTO "
            + table
            + " ("
            + LeaseSql.COLUMNS
            + ") VALUES ('in-service', 0, 'someone', 'somewhere', NULL, NULL, "
            + now
            + " - 3600000, NULL, "
            + now
            + " - 3600000, "
            + now
            + ", NULL, NULL, NULL, NULL)");
  }

  void drop(String table) {
    execute("DROP TABLE IF EXISTS " + table);
  }
}
