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

  /**
   * The keys read by a newcomer at {@code NOW}: both {@code written} keys at {@code written}, as a
   * holder with its clock that far behind left them, and one live holder's mark renewed at {@code
   * markRenewedAt} (by its clock) with a 10 s ttl.
   */
  private static EtcdRecords keysWrittenAt(EtcdKeys keys, long written, long markRenewedAt) {
    long ttl = LIMITS.maxTtl().toMillis();
    long skew = LIMITS.maxSkew().toMillis();
    String mark =
        new EtcdRecords.Mark(
                "b", markRenewedAt + 10_000, markRenewedAt, markRenewedAt + 10_000, false, 0)
            .value();
    return new EtcdRecords(
        keys,
        List.of(
            kv(keys.namespaceRoot + "terms", ttl + " " + skew),
            kv(keys.namespaceRoot + "written", Long.toString(written)),
            kv(keys.namespaceRoot + "records", "1"),
            kv(keys.namespaceRoot + "held/3", "r b 9"),
            kv(keys.namespaceRoot + "mark/3", mark)),
        List.of(
            kv(keys.registryRoot + "written", Long.toString(written)),
            kv(keys.registryRoot + "maxTtl", Long.toString(ttl))),
        true);
  }

  private static AcquireRequest newcomer() {
    return new AcquireRequest(
        "ns", 8, 0, 0, "a", new LeaseTerms(Duration.ofSeconds(10), NOW, NOW + 1_000), LIMITS);
  }

  // A holder with its clock 40 s behind renewed last: the written keys took its clock, and every
  // newcomer judged the prefix idle for longer than maxTtl while another holder renewed 1 s ago
  // (the 600 s etcd run: "no write to the prefix for 11296 ms", a loss wait after each).
  @Test
  void writtenKeysMovedBackByAHolderWithItsClockBehind_aLiveHoldersMarkShowsTheNewerWrite() {
    EtcdKeys keys = new EtcdKeys("/p", "ns");

    EtcdAcquisition a =
        EtcdAcquisition.judge(
            keys, keysWrittenAt(keys, NOW - 40_000, NOW - 1_000), newcomer(), NOW, CLUSTER, null);

    assertThat(a.outcome).isEqualTo(EtcdAcquisition.Outcome.TAKE);
    assertThat(a.loss).isEmpty();
  }

  // A restored state shows no lease unexpired: a mark proves a write only at its expiresAt less
  // maxTtl, and the rule still finds the loss.
  @Test
  void writtenKeysOldAndTheNewestMarkExpired_stillALoss() {
    EtcdKeys keys = new EtcdKeys("/p", "ns");

    // renewed 10.001 s ago with a 10 s ttl: expired 1 ms ago, a write proven maxTtl + 1 ms ago
    EtcdAcquisition a =
        EtcdAcquisition.judge(
            keys, keysWrittenAt(keys, NOW - 40_000, NOW - 10_001), newcomer(), NOW, CLUSTER, null);

    assertThat(a.loss).startsWith("no write to the prefix for 30001 ms");
  }
}
