package io.snowid.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What an operator needs from a running service: HEAD for health checkers, the input named in a
 * decode error, every rejection counted in /metrics, gauges for the node values, the lease's end,
 * the build, the HTTP threads and connections, and an accept backlog that does not drop a burst of
 * connections.
 */
class ServerOperationsTest {
  private static SnowIdServer server;
  private static Http http;

  @BeforeAll
  static void start() {
    server =
        SnowIdServer.start(
            ServerConfig.defaults().withPort(0).withNode("static:worker=3,datacenter=1"));
    http = new Http(server);
  }

  @AfterAll
  static void stop() {
    server.stop();
  }

  @Test
  void headHealth_returns200WithHeadersOnly() throws IOException {
    HttpResponse<String> r = http.send("HEAD", "health");

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).isEmpty();
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    String raw = http.raw("HEAD /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    assertThat(raw).startsWith("HTTP/1.1 200").endsWith("\r\n\r\n"); // no body after the headers
  }

  @Test
  void postHealth_returns405AllowingGetAndHead() {
    HttpResponse<String> r = http.send("POST", "health");

    assertThat(r.statusCode()).isEqualTo(405);
    assertThat(r.headers().firstValue("Allow")).hasValue("GET, HEAD");
  }

  @Test
  void decode_decimalAtOrAbove2To63_namesTheInputNotMinusOne() {
    HttpResponse<String> r = http.get("decode/18446744073709551615");

    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).contains("'18446744073709551615'").doesNotContain("'-1'");
  }

  @Test
  void metrics_jettyRejections_areCountedAsRejected() {
    http.raw("GARBAGE\r\n\r\n");
    http.raw("GET /id HTTP/1.1\r\nHost: localhost\r\nX-Big: " + "x".repeat(9000) + "\r\n\r\n");
    http.raw("GET /id HTTP/9.9\r\nHost: localhost\r\n\r\n");

    String metrics = http.get("metrics").body();

    assertThat(count(metrics, "rejected", 400)).isPositive();
    assertThat(count(metrics, "rejected", 431)).isPositive();
    assertThat(count(metrics, "rejected", 505)).isPositive();
  }

  private static double count(String metrics, String endpoint, int status) {
    Matcher m =
        Pattern.compile(
                "snowid_http_requests_seconds_count\\{endpoint=\""
                    + endpoint
                    + "\",status=\""
                    + status
                    + "\"} ([0-9.E]+)")
            .matcher(metrics);
    return m.find() ? Double.parseDouble(m.group(1)) : 0;
  }

  @Test
  void metrics_nodeValuesBuildLeaseThreadsAndConnections_areExposed() {
    String metrics = http.get("metrics").body();

    assertThat(metrics)
        .contains("snowid_node_value{field=\"datacenter\"} 1.0")
        .contains("snowid_node_value{field=\"worker\"} 3.0")
        .containsPattern(
            "snowid_build_info\\{java=\"[^\"]+\",layout=\"time=41,[^\"]+\",version=\"[0-9]+\\.[0-9]+\\.[0-9]+[^\"]*\"} 1")
        .contains("snowid_lease_valid_until_seconds NaN") // static values: no lease
        .containsPattern("snowid_http_threads\\{state=\"busy\"} [1-9]")
        .containsPattern("snowid_http_threads\\{state=\"idle\"} [0-9]")
        .containsPattern("snowid_http_threads_max [1-9]")
        .containsPattern("snowid_http_queued_jobs [0-9]")
        .containsPattern("snowid_http_connections [1-9]"); // this request's own, at least
  }

  @Test
  void backlog_default_isTheKernelsListenQueue() throws Exception {
    assertThat(ServerConfig.defaults().backlog()).isEqualTo(ServerConfig.DEFAULT_BACKLOG);
    assertThat(ServerConfig.DEFAULT_BACKLOG).isGreaterThanOrEqualTo(1024);
    // ss shows a listening socket's backlog as its Send-Q (capped by net.core.somaxconn)
    String ss = run("ss", "-ltnH", "sport = :" + server.port());
    assumeThat(ss).as("ss (iproute2) is installed").isNotNull();
    long somaxconn = Long.parseLong(run("cat", "/proc/sys/net/core/somaxconn").strip());
    String[] columns = ss.strip().split("\\s+");

    assertThat(Long.parseLong(columns[2]))
        .isEqualTo(Math.min(somaxconn, ServerConfig.DEFAULT_BACKLOG));
  }

  @Test
  void backlog_configured_isTheListenQueue() throws Exception {
    try (SnowIdServer small =
        SnowIdServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withNode("static:worker=4,datacenter=1")
                .withBacklog(7))) {
      String ss = run("ss", "-ltnH", "sport = :" + small.port());
      assumeThat(ss).as("ss (iproute2) is installed").isNotNull();

      assertThat(ss.strip().split("\\s+")[2]).isEqualTo("7");
    }
  }

  /** The command's output, or null if it cannot run here. */
  private static String run(String... command) throws InterruptedException {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      byte[] out = p.getInputStream().readAllBytes();
      return p.waitFor() == 0 ? new String(out, StandardCharsets.UTF_8) : null;
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * A client that sends pipelined requests for large batches and never reads: the stop cannot
   * finish them and must say so, whether Jetty's shutdown failed the blocked response before the
   * stop timeout or it was still in flight. (The exit code that {@code snowid serve} derives from
   * this is tested in ServeOperationsProcessTest.)
   */
  @Test
  void stop_slowReaderCutOffByTheStop_returnsFalse() throws Exception {
    SnowIdServer s =
        SnowIdServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withNode("static:worker=5,datacenter=1")
                .withStopTimeout(Duration.ofSeconds(2)));
    try (Socket client = new Socket()) {
      client.setReceiveBufferSize(4096);
      client.connect(new InetSocketAddress("127.0.0.1", s.port()), 10_000);
      OutputStream out = client.getOutputStream();
      out.write(
          "GET /ids?count=100000 HTTP/1.1\r\nHost: x\r\n\r\n"
              .repeat(20)
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = client.getInputStream();
      assertThat(in.read()).as("the first answer began").isNotNegative(); // then never read on
      awaitAWriteBlocked(new Http(s));

      assertThat(s.stop()).as("drained").isFalse();
    }
  }

  /**
   * A keep-alive connection with no request is closed when the stop begins: the stop does not wait
   * for it until the stop timeout (10 minutes here; the test's own timeout is far shorter).
   */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void stop_idleKeepAliveConnection_closedAtOnce_notHeldUntilTheStopTimeout() throws Exception {
    SnowIdServer s =
        SnowIdServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withNode("static:worker=6,datacenter=1")
                .withStopTimeout(Duration.ofMinutes(10)));
    try (Socket client = new Socket()) {
      client.connect(new InetSocketAddress("127.0.0.1", s.port()), 10_000);
      client
          .getOutputStream()
          .write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      InputStream in = client.getInputStream();
      byte[] buffer = new byte[4096];
      String answer = "";
      while (!answer.contains("}")) { // the whole JSON body: the connection is idle, kept alive
        int n = in.read(buffer);
        assertThat(n).isPositive();
        answer += new String(buffer, 0, n, StandardCharsets.US_ASCII);
      }

      assertThat(s.stop()).as("drained").isTrue();
      client.setSoTimeout(10_000);
      assertThat(Attack.closedByServer(client)).isTrue();
    }
  }

  /**
   * Waits until a response is stuck: the socket buffers are full, so a request stays in flight
   * (besides each scrape itself) while no further {@code /ids} response begins, over ten scrapes in
   * a row. A state to reach, not a time to measure: the wait has no bound but the test's.
   */
  static void awaitAWriteBlocked(Http http) throws InterruptedException {
    Pattern inFlight = Pattern.compile("(?m)^snowid_http_requests_in_flight ([0-9.]+)");
    String previous = "";
    for (int stable = 0; stable < 10; ) {
      String metrics = http.get("metrics").body();
      Matcher m = inFlight.matcher(metrics);
      assertThat(m.find()).isTrue();
      String ids = String.valueOf(count(metrics, "/ids", 200));
      stable = Double.parseDouble(m.group(1)) >= 2 && ids.equals(previous) ? stable + 1 : 0;
      previous = ids;
      Thread.sleep(100);
    }
  }
}
