package io.snowid.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.snowid.Snowflake;
import io.snowid.TimeSource;
import io.snowid.testkit.ManualClock;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** stop() lets a request in flight finish, and only then closes the generator (its lease). */
class GracefulStopTest {
  @TempDir Path leases;

  /**
   * A frozen clock whose waits block until the test opens the gate: a request that needs the next
   * millisecond stays in flight for as long as the test wants.
   */
  static final class GatedClock {
    final ManualClock clock = ManualClock.at(Instant.now());
    final CountDownLatch gate = new CountDownLatch(1);
    final AtomicBoolean parked = new AtomicBoolean();

    GatedClock() {
      clock.beforeEveryPark(
          () -> {
            parked.set(true);
            try {
              gate.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          });
    }
  }

  @Test
  void stop_requestInFlight_finishesItThenClosesTheGenerator() throws Exception {
    GatedClock gated = new GatedClock();
    AtomicBoolean heldWhileInFlight = new AtomicBoolean();
    CompletableFuture<HttpResponse<String>> response = new CompletableFuture<>();
    Snowflake generator =
        Snowflake.builder()
            .timeSource(TimeSource.monotonic(gated.clock))
            .nodeSource("file:" + leases)
            .build();
    SnowIdServer server =
        SnowIdServer.start(
            ServerConfig.defaults().withPort(0).withStopTimeout(Duration.ofSeconds(30)),
            generator,
            true);
    Http http = new Http(server);

    // 10000 IDs need three milliseconds of a frozen clock: the request parks at the gate.
    new Thread(
            () -> {
              try {
                response.complete(http.get("ids?count=10000"));
              } catch (RuntimeException e) {
                response.completeExceptionally(e);
              }
            })
        .start();
    await().atMost(Duration.ofSeconds(30)).untilTrue(gated.parked);
    CompletableFuture<Void> stopped = CompletableFuture.runAsync(server::stop);
    await().atMost(Duration.ofSeconds(30)).until(server::isStopping);
    heldWhileInFlight.set(generator.nodeStatus().held());
    gated.gate.countDown();

    HttpResponse<String> r = response.get(30, TimeUnit.SECONDS);
    stopped.get(30, TimeUnit.SECONDS);

    assertThat(heldWhileInFlight).isTrue();
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body().lines()).hasSize(10_000).doesNotHaveDuplicates();
    assertThat(generator.nodeStatus().held()).isFalse();
    assertThat(generator.nodeStatus().detail()).isEqualTo("released");
  }
}
