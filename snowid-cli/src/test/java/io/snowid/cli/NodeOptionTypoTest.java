package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A misspelt or repeated option in the node URI is bad input: exit 2 and one line naming it (with
 * the option meant), before any lease is taken or anything written; a misspelt option of a jdbc:
 * URI is not passed on to the driver while the process issues IDs in the default namespace.
 */
@Tag("integration")
class NodeOptionTypoTest {
  private static final String POSTGRES = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
  private static final String MARIADB = "jdbc:mariadb://127.0.0.1:3306/test?user=root";

  @TempDir Path dir;

  private final String table =
      "snowid_cli_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

  @AfterEach
  void dropTable() throws SQLException {
    for (String url : new String[] {POSTGRES, MARIADB}) {
      try (Connection c = DriverManager.getConnection(url);
          Statement s = c.createStatement()) {
        s.execute("DROP TABLE IF EXISTS " + table);
      }
    }
  }

  @Test
  void generate_fileNodeWithMisspeltOption_exits2NamingItAndTheDirectoryUntouched() {
    Path leases = dir.resolve("leases");

    Cli r = Cli.run("generate", "--node", "file:" + leases + "?namepsace=orders");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.errLines())
        .containsExactly(
            "snowid: node = namepsace is invalid; allowed: file:DIR with the options namespace,"
                + " ttl, skew, startWait, instance, fields, renew, maxTtl, maxSkew, connectWait only; did you"
                + " mean namespace?");
    assertThat(leases).doesNotExist();
  }

  @Test
  void generate_fileNodeWithRepeatedOption_exits2NamingIt() {
    Path leases = dir.resolve("leases");

    Cli r = Cli.run("generate", "--node", "file:" + leases + "?ttl=1s&ttl=2s");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.errLines())
        .containsExactly(
            "snowid: ttl = 2s is invalid; allowed: one ttl= in the URI (ttl is given twice)");
    assertThat(leases).doesNotExist();
  }

  @ParameterizedTest
  @ValueSource(strings = {POSTGRES, MARIADB})
  void generate_jdbcNodeWithMisspeltNamespace_exits2AndCreatesNoTable(String url)
      throws SQLException {
    Cli r =
        Cli.run("generate", "--node", url + "&namepsace=orders&table=" + table + "&create=true");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.errLines())
        .singleElement()
        .asString()
        .startsWith("snowid: node = namepsace is invalid; allowed: snowid's options")
        .endsWith("; did you mean namespace?");
    try (Connection c = DriverManager.getConnection(url);
        var tables = c.getMetaData().getTables(null, null, table, null)) {
      assertThat(tables.next()).as("table created").isFalse();
    }
  }

  @Test
  void generate_redisNodeWithMisspeltOption_exits2NamingIt() {
    Cli r = Cli.run("generate", "--node", "redis://127.0.0.1:6379?tll=5s");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.errLines())
        .singleElement()
        .asString()
        .startsWith("snowid: node = tll is invalid")
        .endsWith("; did you mean ttl?");
  }
}
