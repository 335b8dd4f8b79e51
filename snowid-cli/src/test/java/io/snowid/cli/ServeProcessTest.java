package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code snowid serve} as its own process: its one shutdown hook stops the server, then the
 * generator, which releases the node lease, on SIGTERM; requests in flight finish first.
 */
@Tag("integration")
class ServeProcessTest {
  /** Four IDs per millisecond: a batch of 12,000 takes three seconds of clock time to issue. */
  private static final String SLOW_LAYOUT =
      "time=41,worker=10,sequence=2,epoch=2024-01-01T00:00:00Z";

  private static final int SLOW_BATCH = 12_000;

  /**
   * A renewal of a 5 s lease covers about 4 s of ID time, which a batch must fit in. A new lease
   * waits out one ttl before its first ID, which the first {@code GET /id} absorbs.
   */
  private static final String TTL = "&ttl=5s";

  @TempDir Path dir;

  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  private static HttpResponse<String> get(ServeProcess serve, String path) throws Exception {
    return CLIENT.send(
        HttpRequest.newBuilder(serve.base.resolve(path)).timeout(Duration.ofSeconds(60)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static CompletableFuture<HttpResponse<String>> getAsync(ServeProcess serve, String path) {
    return CLIENT.sendAsync(
        HttpRequest.newBuilder(serve.base.resolve(path)).timeout(Duration.ofSeconds(60)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Released, not merely dropped by the dying process: the lease file says it ended. */
  private void assertLeaseReleased() throws Exception {
    String record = ServeProcess.leaseRecord(dir);
    assertThat(record).contains("\ntoken=\n").contains("expiresAt=" + Long.MIN_VALUE);
  }

  @Test
  void serve_sigterm_exits0AndReleasesTheLease() throws Exception {
    try (ServeProcess serve =
        ServeProcess.start(
            dir, "--node", "file:" + dir + "?namespace=proc", "--layout", "westid")) {
      // a new lease waits out one ttl before its first ID: /health is 503 meanwhile, saying so
      await().atMost(Duration.ofSeconds(30)).until(() -> get(serve, "health").statusCode() == 200);
      HttpResponse<String> health = get(serve, "health");
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(health.body()).contains("\"values\":{\"worker\":0}");
      assertThat(ServeProcess.leaseRecord(dir)).doesNotContain("\ntoken=\n");

      assertThat(serve.terminate()).isZero();
      assertThat(serve.stderr()).contains("snowid stopped serving on").contains("node released");
    }
    assertLeaseReleased();
  }

  @Test
  void serve_sigtermWithRequestInFlight_answersItThenReleasesTheLease() throws Exception {
    try (ServeProcess serve =
        ServeProcess.start(
            dir,
            "--node",
            "file:" + dir + "?namespace=flight" + TTL,
            "--layout",
            SLOW_LAYOUT,
            "--stop-timeout",
            "60")) {
      assertThat(get(serve, "id").statusCode()).isEqualTo(200);
      CompletableFuture<HttpResponse<String>> inFlight = getAsync(serve, "ids?count=" + SLOW_BATCH);
      Thread.sleep(1000); // the batch takes three seconds
      long sigterm = System.nanoTime();

      int exit = serve.terminate();

      HttpResponse<String> r = inFlight.get(60, TimeUnit.SECONDS);
      long answered = System.nanoTime();
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.body().lines()).hasSize(SLOW_BATCH).doesNotHaveDuplicates();
      assertThat(answered).as("answered after SIGTERM").isGreaterThan(sigterm);
      assertThat(exit).isZero();
      assertThat(serve.stderr()).contains("node released").doesNotContain("cut off");
    }
    assertLeaseReleased();
  }

  @Test
  void serve_sigtermWithRequestOutlastingStopTimeout_exits1AndStillReleasesTheLease()
      throws Exception {
    try (ServeProcess serve =
        ServeProcess.start(
            dir,
            "--node",
            "file:" + dir + "?namespace=cut" + TTL,
            "--layout",
            SLOW_LAYOUT,
            "--stop-timeout",
            "1")) {
      assertThat(get(serve, "id").statusCode()).isEqualTo(200);
      CompletableFuture<HttpResponse<String>> inFlight =
          getAsync(serve, "ids?count=" + (SLOW_BATCH + 2_000));
      Thread.sleep(800); // the batch takes three and a half seconds; the stop waits one

      int exit = serve.terminate();

      assertThat(exit).isEqualTo(1);
      assertThat(inFlight).failsWithin(Duration.ofSeconds(60));
      assertThat(serve.stderr()).contains("cut off").contains("node released");
    }
    assertLeaseReleased();
  }
}
