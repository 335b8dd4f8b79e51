package io.snowid.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.snowid.Snowflake;
import io.snowid.TimeSource;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * stop() lets a request in flight finish, and only then closes the generator (its lease); a stop
 * that times out closes it all the same and says so.
 */
class GracefulStopTest {
  @TempDir Path leases;

  private Snowflake generator(GatedClock gated) {
    return Snowflake.builder()
        .timeSource(TimeSource.monotonic(gated.clock))
        .nodeSource("file:" + leases)
        .build();
  }

  /** 10000 IDs need three milliseconds of a frozen clock: the request parks at the gate. */
  private static CompletableFuture<HttpResponse<String>> inFlight(SnowIdServer server) {
    Http http = new Http(server);
    CompletableFuture<HttpResponse<String>> response = new CompletableFuture<>();
    new Thread(
            () -> {
              try {
                response.complete(http.get("ids?count=10000"));
              } catch (RuntimeException e) {
                response.completeExceptionally(e);
              }
            })
        .start();
    return response;
  }

  @Test
  void stop_requestInFlight_finishesItThenClosesTheGenerator() throws Exception {
    GatedClock gated = new GatedClock();
    Snowflake generator = generator(gated);
    SnowIdServer server =
        SnowIdServer.start(
            ServerConfig.defaults().withPort(0).withStopTimeout(Duration.ofSeconds(30)),
            generator,
            true);
    CompletableFuture<HttpResponse<String>> response = inFlight(server);
    await().atMost(Duration.ofSeconds(30)).untilTrue(gated.parked);

    CompletableFuture<Boolean> stopped = CompletableFuture.supplyAsync(server::stop);
    await().atMost(Duration.ofSeconds(30)).until(server::isStopping);
    // not released while the request is in flight (held, or waiting for a fresh id's high-water
    // mark, where the frozen clock stands)
    String whileInFlight = generator.nodeStatus().detail();
    gated.gate.countDown();

    HttpResponse<String> r = response.get(30, TimeUnit.SECONDS);
    assertThat(stopped.get(30, TimeUnit.SECONDS)).as("drained").isTrue();
    assertThat(whileInFlight).isNotEqualTo("released");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body().lines()).hasSize(10_000).doesNotHaveDuplicates();
    assertThat(generator.nodeStatus().held()).isFalse();
    assertThat(generator.nodeStatus().detail()).isEqualTo("released");
    assertThat(server.stop()).as("a second stop returns the first one's outcome").isTrue();
  }

  @Test
  void stop_requestOutlastsTheStopTimeout_returnsFalseAndStillClosesTheGenerator()
      throws Exception {
    GatedClock gated = new GatedClock();
    Snowflake generator = generator(gated);
    SnowIdServer server =
        SnowIdServer.start(
            ServerConfig.defaults().withPort(0).withStopTimeout(Duration.ofMillis(500)),
            generator,
            true);
    CompletableFuture<HttpResponse<String>> response = inFlight(server);
    await().atMost(Duration.ofSeconds(30)).untilTrue(gated.parked);

    try {
      boolean drained = server.stop();

      assertThat(drained).isFalse();
      assertThat(generator.nodeStatus().held()).isFalse();
      assertThat(generator.nodeStatus().detail()).isEqualTo("released");
    } finally {
      gated.gate.countDown();
    }
    assertThat(response).failsWithin(Duration.ofSeconds(30));
  }

  @Test
  void stop_idleKeepAliveConnection_doesNotCountAsCutOff() {
    SnowIdServer server =
        SnowIdServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withNode("static:worker=1,datacenter=1")
                .withStopTimeout(Duration.ofMillis(200)));
    // The client keeps its connection open after the answer, idle.
    assertThat(new Http(server).get("id").statusCode()).isEqualTo(200);

    assertThat(server.stop()).isTrue();
  }

  @Test
  void stop_callersGenerator_staysOpenForItsOwner() {
    try (Snowflake generator = Snowflake.builder().nodeSource("file:" + leases).build()) {
      SnowIdServer server = SnowIdServer.start(ServerConfig.defaults().withPort(0), generator);

      assertThat(server.stop()).isTrue();
      assertThat(generator.nodeStatus().detail()).isNotEqualTo("released");
      assertThat(generator.nextId()).isPositive(); // after the fresh id's high-water mark
      assertThat(generator.nodeStatus().held()).isTrue();
    }
  }
}
