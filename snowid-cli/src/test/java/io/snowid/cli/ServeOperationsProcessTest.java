package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code snowid serve} as its own process, as an operator runs it: a blank token is refused, the
 * log says whether authentication is on, and a stop that cut a client off exits non-zero.
 */
class ServeOperationsProcessTest {
  private static final String NODE = "static:worker=1,datacenter=1";

  @TempDir Path dir;

  @Tag("integration")
  @Test
  void serve_emptyTokenInTheEnvironment_exits2WithOneLineBeforeServing() throws Exception {
    Path err = dir.resolve("stderr.txt");
    ProcessBuilder pb =
        new ProcessBuilder(ServeProcess.command("--node", NODE)).redirectError(err.toFile());
    pb.environment().put("SNOWID_TOKEN", "");
    Process p = pb.start();
    boolean exited = p.waitFor(60, TimeUnit.SECONDS);
    if (!exited) {
      p.destroyForcibly(); // it served: the blank token was taken for none
    }

    assertThat(exited).as("exited instead of serving").isTrue();
    assertThat(p.exitValue()).isEqualTo(2);
    assertThat(p.getInputStream().readAllBytes()).isEmpty();
    assertThat(Files.readString(err).lines())
        .singleElement()
        .asString()
        .startsWith("snowid: token = (blank) is invalid");
  }

  @Test
  void serve_emptyTokenOption_exits2WithOneLine() throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = SnowIdCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err));
    CompletableFuture<Integer> exit =
        CompletableFuture.supplyAsync(
            () -> cl.execute("serve", "--port", "0", "--node", NODE, "--token="));
    Integer code;
    try {
      code = exit.get(60, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      ((ServeCommand) cl.getSubcommands().get("serve").getCommand()).stop();
      throw new AssertionError("it served, taking the blank token for none: " + out, e);
    }

    assertThat(code).isEqualTo(2);
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString().lines())
        .singleElement()
        .asString()
        .startsWith("snowid: token = (blank)");
  }

  @Tag("integration")
  @Test
  void serve_withAndWithoutToken_logsWhetherAuthIsOn() throws Exception {
    String with;
    try (ServeProcess serve =
        ServeProcess.start(dir, Map.of("SNOWID_TOKEN", "s3cret"), "--node", NODE)) {
      assertThat(serve.terminate()).isZero();
      with = serve.stderr();
    }
    String without;
    try (ServeProcess serve = ServeProcess.start(dir, "--node", NODE)) {
      assertThat(serve.terminate()).isZero();
      without = serve.stderr();
    }

    assertThat(with).contains("INFO SnowIdServer - auth: bearer token").doesNotContain("s3cret");
    assertThat(without).contains("INFO SnowIdServer - auth: none");
  }

  /**
   * A client that pipelines requests for large batches and never reads them: the stop cannot finish
   * them, Jetty's shutdown fails the blocked response, and the exit code says so (it was 0).
   */
  @Tag("integration")
  @Test
  void serve_sigtermWithASlowReaderCutOff_exits1() throws Exception {
    try (ServeProcess serve = ServeProcess.start(dir, "--node", NODE, "--stop-timeout", "2");
        Socket client = new Socket()) {
      client.setReceiveBufferSize(4096);
      client.connect(new InetSocketAddress(serve.base.getHost(), serve.base.getPort()), 10_000);
      OutputStream out = client.getOutputStream();
      out.write(
          "GET /ids?count=100000 HTTP/1.1\r\nHost: x\r\n\r\n"
              .repeat(20)
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = client.getInputStream();
      assertThat(in.read()).as("the first answer began").isNotNegative(); // then never read on
      awaitAWriteBlocked(serve);

      assertThat(serve.terminate()).isEqualTo(1);
      assertThat(serve.stderr()).contains("cut off");
    }
  }

  /**
   * Waits until a response is stuck: the socket buffers are full, so a request stays in flight
   * (besides each scrape itself) while no further {@code /ids} response begins, over ten scrapes in
   * a row. A state to reach, not a time to measure.
   */
  private static void awaitAWriteBlocked(ServeProcess serve) throws Exception {
    HttpClient client = HttpClient.newHttpClient();
    Pattern inFlight = Pattern.compile("(?m)^snowid_http_requests_in_flight ([0-9.]+)");
    Pattern ids =
        Pattern.compile(
            "(?m)^snowid_http_requests_seconds_count\\{endpoint=\"/ids\",status=\"200\"} (\\S+)");
    String previous = "";
    for (int stable = 0; stable < 10; ) {
      String metrics =
          client
              .send(
                  HttpRequest.newBuilder(serve.base.resolve("metrics"))
                      .timeout(Duration.ofSeconds(30))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      Matcher m = inFlight.matcher(metrics);
      // (a build without the gauge: the count of /ids responses alone tells)
      boolean busy = !m.find() || Double.parseDouble(m.group(1)) >= 2;
      Matcher done = ids.matcher(metrics);
      String count = done.find() ? done.group(1) : "0";
      stable = busy && count.equals(previous) ? stable + 1 : 0;
      previous = count;
      Thread.sleep(100);
    }
  }
}
