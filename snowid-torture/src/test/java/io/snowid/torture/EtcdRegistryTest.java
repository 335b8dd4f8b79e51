package io.snowid.torture;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The private etcd of a run and its holds, with etcd's HTTP API as the holder: each hold polled
 * covers the stretch the holder saw its key exist, a restart keeps what was acknowledged, and a
 * rollback puts back the state of the snapshot.
 */
@Tag("integration")
class EtcdRegistryTest {
  @TempDir Path dir;

  private final HttpClient http = HttpClient.newHttpClient();
  private String url;

  private String call(String api, String json) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(url + api))
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return r.body();
  }

  private static String b64(String s) {
    return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }

  /** As snowid-etcd holds: the id's record (instance, mark), the lease key on an etcd lease. */
  private void hold(long id, String instance, long highWater) throws Exception {
    Matcher lease =
        Pattern.compile("\"ID\":\"(\\d+)\"").matcher(call("/v3/lease/grant", "{\"TTL\":30}"));
    assertThat(lease.find()).isTrue();
    call(
        "/v3/kv/put",
        "{\"key\":\""
            + b64("torture/ns/space/mark/" + id)
            + "\",\"value\":\""
            + b64(instance + " " + highWater + " - 0 -")
            + "\"}");
    call(
        "/v3/kv/put",
        "{\"key\":\""
            + b64("torture/ns/space/held/" + id)
            + "\",\"value\":\""
            + b64("t" + id + " " + instance)
            + "\",\"lease\":\""
            + lease.group(1)
            + "\"}");
  }

  private void release(long id) throws Exception {
    call("/v3/kv/deleterange", "{\"key\":\"" + b64("torture/ns/space/held/" + id) + "\"}");
  }

  private boolean exists(long id) throws Exception {
    return call("/v3/kv/range", "{\"key\":\"" + b64("torture/ns/space/held/" + id) + "\"}")
        .contains("\"kvs\"");
  }

  /** The run's private etcd, each worker's etcd lease 2 s, with {@link #call} pointed at it. */
  private EtcdRegistry start() throws Exception {
    EtcdRegistry registry =
        new EtcdRegistry(
            dir,
            InetAddress.getLoopbackAddress(),
            instance -> 2_000,
            "namespace=t",
            new Pids(dir.resolve("pids")));
    url = "http://" + registry.endpoint().getHostString() + ":" + registry.endpoint().getPort();
    return registry;
  }

  @Test
  void holds_coverWhatTheHolderSaw_acrossRestartAndRollback() throws Exception {
    Timeline timeline = new Timeline();
    timeline.sample();
    try (EtcdRegistry registry = start()) {
      hold(5, "w0-1", 5000);
      long held5 = Timeline.monoMicros();
      Thread.sleep(50);
      long stillHeld5 = Timeline.monoMicros();
      release(5);
      hold(6, "w1-1", 6000);
      registry.restart(0);
      assertThat(exists(6)).as("kept by the restart").isTrue();
      Registry.Snapshot snapshot = registry.snapshot();
      hold(7, "w2-1", 7000);
      release(6);
      Thread.sleep(50);
      long rolledBack = Timeline.monoMicros();
      registry.rollback(snapshot);
      assertThat(exists(6)).as("back with the rollback").isTrue();
      assertThat(exists(7)).as("after the snapshot").isFalse();
      Thread.sleep(50);
      timeline.sample();

      List<Hold> holds = registry.stopAndReadHolds(timeline);

      assertThat(holds)
          .anySatisfy(
              h -> {
                assertThat(h.instance()).isEqualTo("w0-1");
                assertThat(h.nodeKey()).isEqualTo(5);
                assertThat(h.namespace()).isEqualTo("space");
                assertThat(h.highWaterMillis()).isEqualTo(5000);
                assertThat(h.fromMicros()).isLessThanOrEqualTo(held5);
                assertThat(h.toMicros())
                    .isGreaterThanOrEqualTo(stillHeld5)
                    .isLessThan(Long.MAX_VALUE);
              });
      assertThat(holds).filteredOn(h -> h.instance().equals("w1-1")).hasSize(2);
      // held when etcd stopped for the rollback: promised to the stop plus its etcd lease time
      assertThat(holds)
          .filteredOn(h -> h.instance().equals("w2-1"))
          .anySatisfy(h -> assertThat(h.toMicros()).isGreaterThanOrEqualTo(rolledBack + 2_000_000));
    }
  }

  private void recordLoss(long lostAt) throws Exception {
    call(
        "/v3/kv/put",
        "{\"key\":\""
            + b64("torture/reg/lostAt")
            + "\",\"value\":\""
            + b64(Long.toString(lostAt))
            + "\"}");
  }

  // The checker dates a loss record's clock by when the harness first saw it (Checker
  // aheadRecorders): each new lostAt once, seen after it was written, and one a rollback brings
  // back is not new.
  @Test
  void lossRecordsSeen_eachNewLostAtOnceAfterItsWrite() throws Exception {
    Timeline timeline = new Timeline();
    timeline.sample();
    try (EtcdRegistry registry = start()) {
      hold(5, "w0-1", 5000);
      long first = Timeline.monoMicros();
      recordLoss(1_000);
      Thread.sleep(100);
      recordLoss(1_000); // the same record written again
      Registry.Snapshot snapshot = registry.snapshot();
      Thread.sleep(100);
      long second = Timeline.monoMicros();
      recordLoss(2_000);
      Thread.sleep(100);
      registry.rollback(snapshot); // the older record comes back: not a new one
      Thread.sleep(100);

      registry.stopAndReadHolds(timeline);

      assertThat(registry.lossRecordsSeen()).hasSize(2);
      assertThat(registry.lossRecordsSeen().get(0)[0]).isGreaterThan(first);
      assertThat(registry.lossRecordsSeen().get(0)[1]).isEqualTo(1_000);
      assertThat(registry.lossRecordsSeen().get(1)[0]).isGreaterThan(second);
      assertThat(registry.lossRecordsSeen().get(1)[1]).isEqualTo(2_000);
    }
  }
}
