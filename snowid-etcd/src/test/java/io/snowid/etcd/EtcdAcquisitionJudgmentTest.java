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

    EtcdAcquisition a =
        EtcdAcquisition.judge(keys, read, request, NOW, CLUSTER, null, Long.MAX_VALUE);

    assertThat(a.outcome).isEqualTo(EtcdAcquisition.Outcome.TAKE);
    assertThat(a.loss).isEqualTo("etcd lost the prefix's state 0 ms ago");
    assertThat(a.base).isEqualTo(lostAt + ttl + skew + LeaseLimits.SLACK.toMillis());
  }

  /**
   * What a newcomer at {@code NOW} judges of keys whose {@code written} keys are 40 s old, as a
   * holder with its clock that far behind left them, beside one mark renewed at {@code
   * markRenewedAt} (by its writer's clock) with a 10 s ttl, of an id with a live {@code held} key
   * or not.
   */
  private static EtcdAcquisition judgeBesideAMark(long markRenewedAt, boolean held) {
    EtcdKeys keys = new EtcdKeys("/p", "ns");
    long ttl = LIMITS.maxTtl().toMillis();
    long skew = LIMITS.maxSkew().toMillis();
    long written = NOW - 40_000;
    String mark =
        new EtcdRecords.Mark(
                "b", markRenewedAt + 10_000, markRenewedAt, markRenewedAt + 10_000, false, 0)
            .value();
    List<KeyValue> namespace =
        new java.util.ArrayList<>(
            List.of(
                kv(keys.namespaceRoot + "terms", ttl + " " + skew),
                kv(keys.namespaceRoot + "written", Long.toString(written)),
                kv(keys.namespaceRoot + "records", "1"),
                kv(keys.namespaceRoot + "mark/3", mark)));
    if (held) {
      namespace.add(kv(keys.namespaceRoot + "held/3", "r b 9"));
    }
    EtcdRecords read =
        new EtcdRecords(
            keys,
            namespace,
            List.of(
                kv(keys.registryRoot + "written", Long.toString(written)),
                kv(keys.registryRoot + "maxTtl", Long.toString(ttl))),
            true);
    AcquireRequest newcomer =
        new AcquireRequest(
            "ns", 8, 0, 0, "a", new LeaseTerms(Duration.ofSeconds(10), NOW, NOW + 1_000), LIMITS);
    return EtcdAcquisition.judge(keys, read, newcomer, NOW, CLUSTER, null, Long.MAX_VALUE);
  }

  // A holder with its clock 40 s behind renewed last: the written keys took its clock, and every
  // newcomer judged the prefix idle for longer than maxTtl while another holder renewed 1 s ago
  // (the 600 s etcd run: "no write to the prefix for 11296 ms", a loss wait after each).
  @Test
  void writtenKeysMovedBackByAHolderWithItsClockBehind_aLiveHoldersMarkShowsTheNewerWrite() {
    EtcdAcquisition a = judgeBesideAMark(NOW - 1_000, true);

    assertThat(a.outcome).isEqualTo(EtcdAcquisition.Outcome.TAKE);
    assertThat(a.loss).isEmpty();
  }

  // A restored state shows no lease unexpired: a mark proves a write only at its expiresAt less
  // maxTtl, and the rule still finds the loss.
  @Test
  void writtenKeysOldAndTheNewestMarkExpired_stillALoss() {
    // renewed 10.001 s ago with a 10 s ttl: expired 1 ms ago, a write proven maxTtl + 1 ms ago
    assertThat(judgeBesideAMark(NOW - 10_001, true).loss)
        .startsWith("no write to the prefix for 30001 ms");
  }

  // An abandoned mark (no live held key) stays until its id is taken again: a recent one must not
  // keep the loss rule off for a state restored with it.
  @Test
  void writtenKeysOldBesideAMarkWithoutALiveHolder_stillALoss() {
    assertThat(judgeBesideAMark(NOW - 1_000, false).loss)
        .startsWith("no write to the prefix for 40000 ms");
  }

  // A mark from a clock far ahead (beyond maxSkew, which etcd cannot check) would keep the loss
  // rule off until its holder renewed with a correct clock.
  @Test
  void writtenKeysOldBesideAMarkFromAClockFarAhead_stillALoss() {
    assertThat(judgeBesideAMark(NOW + 60_000, true).loss)
        .startsWith("no write to the prefix for 40000 ms");
  }

  private static final String WENT_BACK = "etcd's revision went back from 90 to 80";

  /**
   * What an acquisition judges of a prefix in service whose {@code lostAt} another process wrote,
   * when this client saw etcd's revision go back and its last answer from before arrived at its
   * clock's {@code knownAt}.
   */
  private static EtcdAcquisition judgeAfterARollback(long lostAt, long knownAt) {
    long ttl = LIMITS.maxTtl().toMillis();
    long skew = LIMITS.maxSkew().toMillis();
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
    return EtcdAcquisition.judge(keys, read, request, NOW, CLUSTER, WENT_BACK, knownAt);
  }

  // A process cut off while another found the rollback found it again when it came back, and
  // every newcomer waited a whole loss wait from then (the 600 s etcd run: 15.7 s where 8 s were
  // due).
  @Test
  void rollbackRecordedByAnotherProcessAfterThisClientsLastAnswer_isTakenOnNotFoundAgain() {
    long skew = LIMITS.maxSkew().toMillis();
    long lostAt = NOW - 8_000;

    EtcdAcquisition a = judgeAfterARollback(lostAt, lostAt - skew - 1);

    assertThat(a.loss).isEqualTo("etcd lost the prefix's state 8000 ms ago");
    assertThat(a.base).isEqualTo(LIMITS.lostUntilMillis(lostAt));
    assertThat(a.recordsLostAt()).as("the transaction writes no new lostAt").isFalse();
  }

  // A lostAt in the state that is not later than this client's last answer from before the
  // rollback, by more than the clocks may differ, may have been restored with the state: the
  // rollback is this client's to record.
  @Test
  void lostAtNotAfterThisClientsLastAnswerByMoreThanMaxSkew_rollbackRecordedAnew() {
    long skew = LIMITS.maxSkew().toMillis();
    long lostAt = NOW - 8_000;

    EtcdAcquisition a = judgeAfterARollback(lostAt, lostAt - skew);

    assertThat(a.loss).isEqualTo(WENT_BACK);
    assertThat(a.base).isEqualTo(LIMITS.lostUntilMillis(NOW));
    assertThat(a.recordsLostAt()).isTrue();
  }

  // A new cluster id without the revision going back tells nothing of when the history branched.
  @Test
  void rollbackThatTellsNoTime_recordedAnewWhateverTheLostAt() {
    EtcdHistory.Loss undated = new EtcdHistory.Loss(WENT_BACK, false, 0);

    EtcdAcquisition a =
        judgeAfterARollback(NOW - 1, undated.knownAt(new EtcdHistory.Reading(NOW, 0)));

    assertThat(a.loss).isEqualTo(WENT_BACK);
    assertThat(a.base).isEqualTo(LIMITS.lostUntilMillis(NOW));
    assertThat(a.recordsLostAt()).isTrue();
  }
}
