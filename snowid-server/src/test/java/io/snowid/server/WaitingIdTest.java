package io.snowid.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.snowid.Snowflake;
import io.snowid.TimeSource;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An {@code /id} that waits for its time (here a high-water mark ahead of a frozen clock, the wait
 * of a fresh lease) is handed to the pool and the other connections are answered meanwhile: held on
 * the thread that reads every connection, it would make {@code /health} time out exactly when the
 * service is busiest.
 *
 * <p>No timing threshold: the waiting request stays parked until the test opens the gate, after the
 * other requests were answered. The client's request timeout only turns a stall into a failure
 * instead of a hang.
 */
class WaitingIdTest {
  @Test
  void id_parkedInTheGenerator_otherConnectionsAreStillAnswered() throws Exception {
    GatedClock gated = new GatedClock();
    TimeSource time = TimeSource.monotonic(gated.clock);
    long mark = time.millis() + 100;
    Snowflake generator =
        Snowflake.builder()
            .timeSource(time)
            .node("datacenter", 1)
            .node("worker", 2)
            .startAfter(mark)
            .build();
    SnowIdServer server = SnowIdServer.start(ServerConfig.defaults().withPort(0), generator, true);
    Http http = new Http(server);
    try {
      CompletableFuture<HttpResponse<String>> waiting =
          CompletableFuture.supplyAsync(() -> http.get("id"));
      await().atMost(Duration.ofSeconds(30)).untilTrue(gated.parked);

      // each on another connection: the client's one connection is busy with the parked /id
      HttpResponse<String> health = http.get("health");
      HttpResponse<String> metrics = http.get("metrics");
      HttpResponse<String> decode = http.get("decode/1541815603606036480");

      assertThat(waiting).isNotDone();
      assertThat(health.body()).startsWith("{\"status\":");
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.body()).contains("snowid_ids_issued_total");
      assertThat(decode.statusCode()).isEqualTo(200);

      gated.gate.countDown();
      HttpResponse<String> id = waiting.get(30, TimeUnit.SECONDS);
      assertThat(id.statusCode()).isEqualTo(200);
      long issued = Long.parseLong(id.body().strip());
      assertThat(generator.layout().decode(issued).timestampMillis()).isGreaterThan(mark);
    } finally {
      gated.gate.countDown();
      server.stop();
    }
  }
}
