package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code snowid generate --node jdbc:…}: the command brings snowid-jdbc and the PostgreSQL and
 * MariaDB drivers, so a database URL with snowid's options in its query works as written (here on
 * the shared servers, in a table of the test's own that the URL lets snowid create).
 */
@Tag("integration")
class GenerateJdbcTest {
  private static final List<String> DATABASES =
      List.of(
          "jdbc:postgresql://127.0.0.1:5432/test?user=postgres",
          "jdbc:mariadb://127.0.0.1:3306/test?user=root");
  private final String table =
      "snowid_cli_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

  @AfterEach
  void dropTable() throws SQLException {
    for (String url : DATABASES) {
      try (Connection c = DriverManager.getConnection(url);
          Statement s = c.createStatement()) {
        s.execute("DROP TABLE IF EXISTS " + table);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1})
  void generate_jdbcNodeWithLeaseOptionsInTheQuery_printsIncreasingIds(int database) {
    String node =
        DATABASES.get(database)
            + "&namespace=orders&ttl=1s&maxTtl=1s&maxSkew=1s&table="
            + table
            + "&create=true";

    Cli r = Cli.run("generate", "-n", "3", "--node", node);

    assertThat(r.exit()).as(r.err()).isZero();
    List<Long> ids = r.outLines().stream().map(Long::parseLong).toList();
    assertThat(ids).hasSize(3).isSorted().doesNotHaveDuplicates();
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1})
  void generate_jdbcNodeWithoutTheTable_exits1PrintingTheDdlOnOneLine(int database) {
    Cli r = Cli.run("generate", "--node", DATABASES.get(database) + "&table=" + table);

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.errLines()).hasSize(1);
    assertThat(r.err())
        .startsWith("snowid: lease table " + table + " on jdbc:")
        .contains("does not exist; create it with: CREATE TABLE IF NOT EXISTS " + table + " (");
  }
}
