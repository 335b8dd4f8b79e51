package io.snowid.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.snowid.lease.AcquireRequest;
import io.snowid.lease.LeaseLimits;
import io.snowid.lease.LeaseTerms;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What an acquisition judges from the keys it read, without a server. */
class EtcdAcquisitionJudgmentTest {
  private static final long NOW = 1_800_000_000_000L;
  private static final long CLUSTER = 7;
  private static final LeaseLimits LIMITS = LeaseLimits.DEFAULT;

  private static KeyValue kv(String key, String value) {
    return new KeyValue(
        io.etcd.jetcd.api.KeyValue.newBuilder()
            .setKey(com.google.protobuf.ByteString.copyFromUtf8(key))
            .setValue(com.google.protobuf.ByteString.copyFromUtf8(value))
            .setModRevision(5)
            .build(),
        ByteSequence.from("", StandardCharsets.UTF_8));
  }

  /**
   * A loss recorded by a holder whose clock ran ahead of this one's (etcd's times are its
   * holders'): {@code lostAt} is after this acquisition's {@code now}, and the age in the message
   * is 0, not negative.
   */
  @Test
  void aLossRecordedByAHolderWithAClockAhead_isReportedAs0MsAgo_notANegativeAge() {
    long ttl = LIMITS.maxTtl().toMillis();
    long skew = LIMITS.maxSkew().toMillis();
    long lostAt = NOW + 96;
    EtcdKeys keys = new EtcdKeys("/p", "ns");
    EtcdRecords read =
        new EtcdRecords(
            keys,
            List.of(
                kv(keys.namespaceRoot + "terms", ttl + " " + skew),
                kv(keys.namespaceRoot + "written", Long.toString(NOW - 100)),
                kv(keys.namespaceRoot + "records", "0")),
            List.of(
                kv(keys.registryRoot + "written", Long.toString(NOW - 100)),
                kv(keys.registryRoot + "maxTtl", Long.toString(ttl)),
                kv(keys.registryRoot + "lostAt", Long.toString(lostAt))),
            true);
    AcquireRequest request =
        new AcquireRequest(
            "ns", 8, 0, 0, "a", new LeaseTerms(Duration.ofSeconds(10), NOW, NOW + 1_000), LIMITS);

    EtcdAcquisition a = EtcdAcquisition.judge(keys, read, request, NOW, CLUSTER, null);

    assertThat(a.outcome).isEqualTo(EtcdAcquisition.Outcome.TAKE);
    assertThat(a.loss).isEqualTo("etcd lost the prefix's state 0 ms ago");
    assertThat(a.base).isEqualTo(lostAt + ttl + skew + LeaseLimits.SLACK.toMillis());
  }
}
