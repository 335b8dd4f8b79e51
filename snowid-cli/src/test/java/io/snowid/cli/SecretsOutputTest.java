package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * No password of {@code --node} reaches any output: stdout, the error line, {@code --verbose}'s
 * stack trace, {@code snowid leases}' header, {@code serve}'s log lines and its unauthenticated
 * {@code /health} and {@code /metrics} (which name the source by scheme and host only), in every
 * form: MariaDB's {@code address=(…)(password=…)} (the shared server ignores a password there), a
 * userinfo with unencoded characters, a query password.
 */
@Tag("integration")
class SecretsOutputTest {
  private static final String SECRET = "S3cr3tQ";

  private final String table =
      "snowid_sec_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

  @TempDir Path dir;

  private String addressForm(int port) {
    return "jdbc:mariadb://address=(host=127.0.0.1)(port="
        + port
        + ")(user=root)(password="
        + SECRET
        + ")/test?table="
        + table
        + "&create=true";
  }

  @AfterEach
  void dropTable() throws SQLException {
    try (Connection c =
            DriverManager.getConnection("jdbc:mariadb://127.0.0.1:3306/test?user=root");
        Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS " + table);
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "jdbc:mariadb://address=(host=127.0.0.1)(port=1)(user=root)(password=S3cr3tQ)/test",
        "jdbc:mariadb://root:S3cr3tQ@127.0.0.1:1/test",
        "jdbc:mariadb://root:S3/cr3tQ@127.0.0.1:1/test",
        "jdbc:postgresql://127.0.0.1:1/test?user=postgres&password=S3cr3tQ",
        "jdbc:postgresql://127.0.0.1:1/test?user=postgres&password=S3&cr3tQ",
        "redis://:S3cr3tQ@127.0.0.1:1",
        "redis://:S3cr3t/pwQ@127.0.0.1:16393",
        "redis://:S3cr3t#pwQ@127.0.0.1:1",
        "redis-sentinel://S3cr3tQ@127.0.0.1:1,127.0.0.1:2/0#mymaster",
      })
  void generateAndLeases_unreachableOrMalformed_neverPrintThePassword(String node) {
    for (String command : new String[] {"generate", "leases"}) {
      // a second of retries, not connectWait's default 30 s, for the unreachable ones
      String uri = node + (node.contains("?") ? "&" : "?") + "connectWait=1s";
      Cli r = Cli.run(command, "--verbose", "--node", uri);

      assertThat(r.exit()).as(r.err()).isIn(1, 2);
      assertThat(r.err()).as(command).startsWith("snowid: ").contains("\tat ");
      assertNoSecret(r.out() + r.err(), command + " " + node);
    }
  }

  @Test
  void misspeltOption_echoedWithoutThePassword() {
    Cli r = Cli.run("generate", "--nod=redis://app:S3cr3tQ@127.0.0.1:1");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("unknown option '--nod'").contains("did you mean --node?");
    assertNoSecret(r.out() + r.err(), "misspelt --node");
  }

  @Test
  void leases_addressForm_headerWithoutThePassword() {
    Cli r = Cli.run("leases", "--node", addressForm(3306));

    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("coordinator  jdbc:mariadb://address=(host=127.0.0.1)(port=3306)");
    assertNoSecret(r.out() + r.err(), "leases");
  }

  @Test
  void serve_addressForm_healthMetricsAndLogsWithoutThePassword() throws Exception {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    try (ServeProcess serve =
        ServeProcess.start(dir, "--node", addressForm(3306) + "&ttl=2s", "--layout", "westid")) {
      String health = get(client, serve, "/health");
      String metrics = get(client, serve, "/metrics");
      assertThat(serve.terminate()).isZero();

      assertThat(health).contains("\"source\":\"jdbc:mariadb://127.0.0.1:3306 node id ");
      assertNoSecret(health, "/health");
      assertThat(metrics).contains("snowid_lease_held");
      assertNoSecret(metrics, "/metrics");
      String logs = serve.stderr();
      assertThat(logs).contains("leased from jdbc:mariadb://").contains("snowid serving on ");
      assertNoSecret(logs, "serve's log lines");
    }
  }

  private static String get(HttpClient client, ServeProcess serve, String path) throws Exception {
    return client
        .send(
            HttpRequest.newBuilder(serve.base.resolve(path))
                .timeout(Duration.ofSeconds(60))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  private static void assertNoSecret(String output, String what) {
    assertThat(output).as(what).doesNotContain("S3").doesNotContain("cr3t").doesNotContain("pwQ");
  }
}
