package io.snowid.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.snowid.Snowflake;
import io.snowid.TimeSource;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The limits a server sets on what clients may hold: IDs reserved ahead (429 beyond), connections
 * (the oldest idle one closed for a new one), the time to send a request's headers, and the idle
 * timeout, which does not cut a request waiting for its IDs.
 */
class ServerLimitsTest {
  /** Keep-alive connections left idle are closed after this on stop. */
  private static final Duration STOP = Duration.ofMillis(300);

  private static Snowflake gatedGenerator(GatedClock gated, int worker) {
    return Snowflake.builder()
        .timeSource(TimeSource.monotonic(gated.clock))
        .node("datacenter", 4)
        .node("worker", worker)
        .build();
  }

  /**
   * A cap of 1 ms of the twitter layout is 4,096 IDs. A batch of 5,000 is admitted alone (nothing
   * else reserved) and parks: the frozen clock cannot give it its second millisecond. Behind it, a
   * batch of 10 and an /id that must wait get 429 with Retry-After at once; once the batch is done
   * the gauge is back to 0 and requests are served again.
   */
  @Test
  void beyondTheCapOnIdsReservedAhead_429WithRetryAfterAtOnce() throws Exception {
    GatedClock gated = new GatedClock();
    Snowflake generator = gatedGenerator(gated, 1);
    SnowIdServer server =
        SnowIdServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withStopTimeout(STOP)
                .withMaxReservedAhead(Duration.ofMillis(1)),
            generator,
            true);
    Http http = new Http(server);
    try {
      CompletableFuture<HttpResponse<String>> big =
          CompletableFuture.supplyAsync(() -> http.get("ids?count=5000"));
      await().atMost(Duration.ofSeconds(30)).untilTrue(gated.parked);

      CompletableFuture<HttpResponse<String>> small =
          CompletableFuture.supplyAsync(() -> http.get("ids?count=10"));
      CompletableFuture<HttpResponse<String>> one =
          CompletableFuture.supplyAsync(() -> http.get("id"));
      HttpResponse<String> refused = small.get(30, TimeUnit.SECONDS);
      HttpResponse<String> refusedId = one.get(30, TimeUnit.SECONDS);
      double reservedWhileParked = Attack.metric(http, "snowid_http_reserved_ahead");
      double cap = Attack.metric(http, "snowid_http_reserved_ahead_max");

      assertThat(big).isNotDone();
      for (HttpResponse<String> r : List.of(refused, refusedId)) {
        assertThat(r.statusCode()).isEqualTo(429);
        assertThat(r.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(r.body()).startsWith("{\"error\":\"too many IDs reserved ahead");
      }
      assertThat(reservedWhileParked).isEqualTo(5000.0);
      assertThat(cap).isEqualTo(4096.0);

      gated.gate.countDown();
      assertThat(big.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
      assertThat(Attack.metric(http, "snowid_http_reserved_ahead")).isEqualTo(0.0);
      assertThat(http.get("ids?count=10").statusCode()).isEqualTo(200);
    } finally {
      gated.gate.countDown();
      server.stop();
    }
  }

  /**
   * A limit of 20: 20 idle connections fill it; each of 5 more closes the oldest idle one; a health
   * check on a new connection is served (closing one more), and the server never holds more than
   * 20.
   */
  @Test
  void connectionLimit_newConnectionClosesTheOldestIdle_andAHealthCheckGetsIn() throws Exception {
    SnowIdServer server =
        SnowIdServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withStopTimeout(STOP)
                .withNode("static:worker=22,datacenter=3")
                .withIdleTimeout(Duration.ofMinutes(10)) // only the limit closes them
                .withMaxConnections(20));
    List<Socket> sockets = new ArrayList<>();
    try {
      for (int i = 0; i < 20; i++) {
        sockets.add(Attack.connect(server));
      }
      await().atMost(Duration.ofSeconds(30)).until(() -> server.openConnections() == 20);
      for (int i = 0; i < 5; i++) {
        sockets.add(Attack.connect(server));
      }
      for (int i = 0; i < 5; i++) {
        sockets.get(i).setSoTimeout(10_000);
        assertThat(Attack.closedByServer(sockets.get(i))).as("oldest, #%d", i).isTrue();
      }
      await().atMost(Duration.ofSeconds(30)).until(() -> server.openConnections() == 20);

      HttpResponse<String> health = new Http(server).get("health");

      assertThat(health.statusCode()).isEqualTo(200);
      sockets.get(5).setSoTimeout(10_000);
      assertThat(Attack.closedByServer(sockets.get(5))).as("the next oldest").isTrue();
      sockets.get(24).setSoTimeout(200);
      assertThat(Attack.closedByServer(sockets.get(24))).as("the newest").isFalse();
      assertThat(server.openConnections()).isLessThanOrEqualTo(20);
      String metrics = new Http(server).get("metrics").body();
      assertThat(metrics)
          .contains("snowid_http_connections_max 20.0")
          .containsPattern(
              "snowid_http_connections_closed_total\\{reason=\"limit-oldest-idle\"} ([6-9]|[1-9][0-9])");
    } finally {
      for (Socket s : sockets) {
        s.close();
      }
      server.stop();
    }
  }

  /** As the default's test (HostileClientTest), with a header timeout of 300 ms: counted. */
  @Test
  void headerTimeout_configured_closesASlowRequestAndIsCounted() throws Exception {
    SnowIdServer server =
        SnowIdServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withStopTimeout(STOP)
                .withNode("static:worker=23,datacenter=3")
                .withHeaderTimeout(Duration.ofMillis(300)));
    try (Socket slow = Attack.connect(server)) {
      slow.setSoTimeout(30_000);
      OutputStream out = slow.getOutputStream();
      out.write("GET /id HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();

      assertThat(Attack.closedByServer(slow)).isTrue();
      assertThat(new Http(server).get("metrics").body())
          .contains("snowid_http_connections_closed_total{reason=\"header-timeout\"} 1.0");
    } finally {
      server.stop();
    }
  }

  /**
   * An idle timeout of 300 ms, and a batch parked in the generator for longer (until the test opens
   * the gate, after the timeout passed): the request is answered, not cut.
   */
  @Test
  void idleTimeout_doesNotCutARequestWaitingForItsIds() throws Exception {
    GatedClock gated = new GatedClock();
    SnowIdServer server =
        SnowIdServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withStopTimeout(STOP)
                .withIdleTimeout(Duration.ofMillis(300)),
            gatedGenerator(gated, 2),
            true);
    Http http = new Http(server);
    try {
      CompletableFuture<HttpResponse<String>> batch =
          CompletableFuture.supplyAsync(() -> http.get("ids?count=5000"));
      await().atMost(Duration.ofSeconds(30)).untilTrue(gated.parked);
      Thread.sleep(1000); // more than the idle timeout, with no byte on the connection

      gated.gate.countDown();

      HttpResponse<String> r = batch.get(30, TimeUnit.SECONDS);
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.body().lines()).hasSize(5000);
    } finally {
      gated.gate.countDown();
      server.stop();
    }
  }

  /**
   * A client that pipelines batches and reads none of them leaves a response in the heap once the
   * socket buffers are full. With a cap of 1 byte, a batch of another client is refused with 429
   * before it is generated while that response waits; once the reader leaves, the gauge is back to
   * 0 and batches are served.
   */
  @Test
  void batchesNotReadByTheirClient_capTheBytesWaitingToBeSent_429BeyondIt() throws Exception {
    SnowIdServer server =
        SnowIdServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withStopTimeout(STOP)
                .withNode("static:worker=23,datacenter=3"),
            Snowflake.builder().node("datacenter", 3).node("worker", 23).build(),
            true,
            1);
    Http http = new Http(server);
    Socket reader = new Socket();
    try {
      reader.setReceiveBufferSize(4096);
      reader.connect(new java.net.InetSocketAddress(server.uri().getHost(), server.port()));
      OutputStream out = reader.getOutputStream();
      out.write(
          "GET /ids?count=100000 HTTP/1.1\r\nHost: x\r\n\r\n"
              .repeat(8)
              .getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> Attack.metric(http, "snowid_http_unsent_bytes") > 0);

      HttpResponse<String> refused = http.get("ids?count=10");

      assertThat(refused.statusCode()).isEqualTo(429);
      assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
      assertThat(refused.body()).startsWith("{\"error\":\"too many IDs not yet read");
      assertThat(http.get("id").statusCode()).isEqualTo(200); // one ID is not held back
      assertThat(Attack.metric(http, "snowid_http_unsent_bytes_max")).isEqualTo(1.0);

      reader.close();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> Attack.metric(http, "snowid_http_unsent_bytes") == 0.0);
      assertThat(http.get("ids?count=10").statusCode()).isEqualTo(200);
    } finally {
      reader.close();
      server.stop();
    }
  }

  /**
   * Every place taken by a client that pipelines batches and reads none of its answers: a health
   * check on a new connection is still served, the oldest of those connections closed for it.
   */
  @Test
  void connectionLimit_everyConnectionWritingToAClientThatDoesNotRead_aHealthCheckGetsIn()
      throws Exception {
    SnowIdServer server =
        SnowIdServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withStopTimeout(STOP)
                .withNode("static:worker=24,datacenter=3")
                .withIdleTimeout(Duration.ofMinutes(10)) // only the limit closes them
                .withMaxConnections(4));
    Http http = new Http(server);
    List<Socket> readers = new ArrayList<>();
    try {
      for (int i = 0; i < 4; i++) {
        Socket s = new Socket();
        s.setReceiveBufferSize(4096);
        s.connect(new java.net.InetSocketAddress(server.uri().getHost(), server.port()));
        s.getOutputStream()
            .write(
                "GET /ids?count=100000 HTTP/1.1\r\nHost: x\r\n\r\n"
                    .repeat(8)
                    .getBytes(StandardCharsets.ISO_8859_1));
        readers.add(s);
      }
      await().atMost(Duration.ofSeconds(30)).until(() -> server.writingConnections() == 4);

      HttpResponse<String> health = http.get("health");

      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(http.get("metrics").body())
          .containsPattern(
              "snowid_http_connections_closed_total\\{reason=\"limit-oldest-writing\"} [1-9]");
    } finally {
      for (Socket s : readers) {
        s.close();
      }
      server.stop();
    }
  }
}
