package io.snowid.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.snowid.Layout;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** With a {@code file:} lease, /health follows the lease and IDs stop while it is not held. */
class ServerLeaseTest {
  @TempDir Path leases;

  private SnowIdServer start() {
    return SnowIdServer.start(
        ServerConfig.defaults().withPort(0).withNode("file:" + leases + "?ttl=2s"));
  }

  /** A fresh id of a file: lease waits one ttl (its high-water mark) before the first ID. */
  private static void awaitHeld(SnowIdServer server) {
    await().atMost(Duration.ofSeconds(10)).until(() -> server.generator().nodeStatus().held());
  }

  @Test
  void health_leaseHeld_returns200WithTheLeasedValues() {
    try (SnowIdServer server = start()) {
      awaitHeld(server);
      HttpResponse<String> r = new Http(server).get("health");

      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.body())
          .startsWith("{\"status\":\"UP\",\"held\":true,\"source\":\"file:" + leases)
          .contains("\"worker\":0")
          .contains("\"detail\":\"held\"")
          .containsPattern("\"validUntil\":\"20[0-9-]+T");
    }
  }

  // While a fresh file: id waits one ttl for its high-water mark, /id would block, so /health is
  // 503 and says until when, not UP.
  @Test
  void health_freshLeaseBeforeItsHighWaterMark_returns503SayingUntilWhen() {
    try (SnowIdServer server =
        SnowIdServer.start(
            ServerConfig.defaults().withPort(0).withNode("file:" + leases + "?ttl=10s"))) {
      HttpResponse<String> r = new Http(server).get("health");

      assertThat(r.statusCode()).isEqualTo(503);
      assertThat(r.body())
          .startsWith("{\"status\":\"DOWN\",\"held\":false,\"source\":\"file:" + leases)
          .contains("\"worker\":0")
          .containsPattern("\"detail\":\"the first ID waits until 20[0-9-]+T[0-9:.]+Z")
          .contains("has no readable lease record here")
          .contains("one lease time (10s)");
      assertThat(new Http(server).get("metrics").body()).contains("snowid_lease_held 0.0");
    }
  }

  @Test
  void twoServers_sameLeaseDirectory_getDifferentWorkers() {
    try (SnowIdServer a = start();
        SnowIdServer b = start()) {
      assertThat(a.generator().node()).isNotEqualTo(b.generator().node());
    }
  }

  @Test
  void health_leaseReleased_returns503WithTheReason() {
    try (SnowIdServer server = start()) {
      Http http = new Http(server);
      server.generator().close(); // the lease is gone: the node id may go to someone else

      HttpResponse<String> health = http.get("health");
      HttpResponse<String> id = http.get("id");

      assertThat(health.statusCode()).isEqualTo(503);
      assertThat(health.headers().firstValue("Content-Type")).hasValue("application/json");
      assertThat(health.body())
          .startsWith("{\"status\":\"DOWN\",\"held\":false,")
          .contains("\"values\":{}")
          .contains("\"detail\":\"released\"");
      assertThat(id.statusCode()).isEqualTo(503);
      assertThat(id.headers().firstValue("Retry-After")).hasValue("1");
      assertThat(id.body()).contains("lease is not held").doesNotContain("Exception");
      assertThat(http.get("ids?count=3").statusCode()).isEqualTo(503);
      assertThat(http.get("metrics").body()).contains("snowid_lease_held 0.0");
    }
  }

  @Test
  void ids_batchLongerThanTheLeaseCovers_returns400SayingSo() {
    Layout slow = Layout.parse("time=41,worker=10,sequence=2,epoch=2024-01-01T00:00:00Z");
    try (SnowIdServer server =
        SnowIdServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withLayout(slow)
                .withNode("file:" + leases + "?ttl=2s"))) {
      HttpResponse<String> r = new Http(server).get("ids?count=100000");

      assertThat(r.statusCode()).isEqualTo(400);
      assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
      // 25000 units of 4 IDs, one more when the batch starts inside a unit (as after a fresh id's
      // high-water mark, where the first position is a random sequence of its unit)
      assertThat(r.body())
          .containsPattern("^\\{\"error\":\"a batch of 100000 IDs spans 25(\\.001)?s of ID time")
          .contains("ask for fewer IDs at a time");
      assertThat(new Http(server).get("ids?count=1000").statusCode()).isEqualTo(200);
    }
  }

  @Test
  void stop_ownGenerator_releasesTheLease() {
    SnowIdServer server = start();
    awaitHeld(server);

    server.stop();

    assertThat(server.generator().nodeStatus().held()).isFalse();
    assertThat(server.generator().nodeStatus().detail()).isEqualTo("released");
  }
}
