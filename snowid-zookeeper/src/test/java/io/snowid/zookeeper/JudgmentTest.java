package io.snowid.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.lease.AcquireRequest;
import io.snowid.lease.LeaseLimits;
import io.snowid.lease.LeaseTerms;
import io.snowid.zookeeper.Records.Registry;
import io.snowid.zookeeper.Records.State;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What an acquisition judges from what it read, without a server. */
class JudgmentTest {
  private static final long NOW = 1_800_000_000_000L;
  private static final LeaseLimits LIMITS = LeaseLimits.DEFAULT;

  private static AcquireRequest request() {
    return new AcquireRequest(
        "ns", 8, 0, 0, "a", new LeaseTerms(Duration.ofSeconds(10), NOW, NOW + 1_000), LIMITS);
  }

  /**
   * A loss recorded by a leader whose clock ran ahead of this one's: {@code lostAt} is after the
   * acquisition's {@code now}, and the age in the message is 0, not negative.
   */
  @Test
  void aLossRecordedAtALaterEnsembleTime_isReportedAs0MsAgo_notANegativeAge() {
    long ttl = LIMITS.maxTtl().toMillis();
    long skew = LIMITS.maxSkew().toMillis();
    long lostAt = NOW + 96;
    Judgment.View v =
        new Judgment.View(
            NOW,
            new Registry(lostAt, ttl),
            NOW - 100,
            new State(ttl, skew, 1, Records.NONE),
            NOW - 100,
            1,
            1,
            true,
            "");

    Judgment j = Judgment.of(v, request(), "test");

    assertThat(j.loss()).isEqualTo("ZooKeeper lost the chroot's state 0 ms ago");
    assertThat(j.lostUntil()).isEqualTo(lostAt + ttl + skew + LeaseLimits.SLACK.toMillis());
  }
}
