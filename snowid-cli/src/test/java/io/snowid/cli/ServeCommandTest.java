package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

class ServeCommandTest {

  @Test
  void serve_portZero_servesIdsUntilStopped() throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = SnowIdCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err));
    CompletableFuture<Integer> exit =
        CompletableFuture.supplyAsync(
            () ->
                cl.execute(
                    "serve",
                    "--port",
                    "0",
                    "--node",
                    "static:worker=5,datacenter=6",
                    "--token",
                    "t0k",
                    "--stop-timeout",
                    "1"));
    Pattern url = Pattern.compile("snowid serving on (http://127\\.0\\.0\\.1:[0-9]+/)");
    await().atMost(Duration.ofSeconds(30)).until(() -> url.matcher(out.toString()).find());
    Matcher m = url.matcher(out.toString());
    assertThat(m.find()).isTrue();
    URI base = URI.create(m.group(1));

    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(base.resolve("id"))
                    .header("Authorization", "Bearer t0k")
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    ServeCommand serve = cl.getSubcommands().get("serve").getCommand();
    serve.stop();

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).matches("[0-9]+\n");
    assertThat(exit.get(30, TimeUnit.SECONDS)).isZero();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "--port 70000",
        "--port -1",
        "--port http",
        "--layout nope",
        "--stop-timeout 601",
        "--node static:worker=32,datacenter=1",
        "--token two%20words",
        "--max-connections 0",
        "--max-connections 1000001",
        "--header-timeout 0",
        "--header-timeout 601",
        "--idle-timeout 3601",
        "--max-reserved-ahead 0",
        "--max-reserved-ahead 60001"
      })
  void serve_badInput_exits2WithOneLine(String args) {
    Cli r =
        Cli.run(
            ("serve --node static:worker=1,datacenter=1 " + args.replace("%20", " "))
                .split(" (?![a-z]+$)"));

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.errLines()).hasSize(1);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "--max-connections|lots|max-connections = lots is invalid; allowed: 1..1000000",
        "--header-timeout|-1|header-timeout = -1 is invalid; allowed: 1..600",
        "--idle-timeout|0|idle-timeout = 0 is invalid; allowed: 1..3600",
        "--max-reserved-ahead|1s|max-reserved-ahead = 1s is invalid; allowed: 1..60000"
      })
  void serve_badLimit_exits2NamingTheOptionAndItsRange(String row) {
    String[] c = row.split("\\|", -1);

    Cli r = Cli.run("serve", "--node", "static:worker=1,datacenter=1", c[0], c[1]);

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.errLines()).containsExactly("snowid: " + c[2]);
  }

  @Test
  void serve_help_namesTheLimitsAndTheirDefaults() {
    Cli r = Cli.run("serve", "--help");

    assertThat(r.out().replaceAll("\\s+", " "))
        .contains("--max-connections=N")
        .contains("default 10000, or half the process's open-file limit if that is lower")
        .contains("--header-timeout=SECONDS")
        .contains("(env SNOWID_HEADER_TIMEOUT; default 10)")
        .contains("--idle-timeout=SECONDS")
        .contains("(env SNOWID_IDLE_TIMEOUT; default 30)")
        .contains("--max-reserved-ahead=MILLIS")
        .contains("(env SNOWID_MAX_RESERVED_AHEAD; default 250)");
  }

  @Test
  void serve_portInUse_exits1WithOneLine() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      Cli r =
          Cli.run(
              "serve",
              "--port",
              Integer.toString(taken.getLocalPort()),
              "--node",
              "static:worker=1,datacenter=1");

      assertThat(r.exit()).isEqualTo(1);
      assertThat(r.errLines()).hasSize(1);
      assertThat(r.err()).startsWith("snowid: cannot serve on 127.0.0.1:" + taken.getLocalPort());
    }
  }
}
