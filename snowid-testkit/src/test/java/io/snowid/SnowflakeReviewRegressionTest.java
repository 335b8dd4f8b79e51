package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.node.LeaseLostException;
import io.snowid.node.NodeGrant;
import io.snowid.node.NodeLease;
import io.snowid.node.NodeStatus;
import io.snowid.testkit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/** Regression tests for the findings of the independent review that were fixed afterwards. */
class SnowflakeReviewRegressionTest {

  /** A ticker that runs a hook on every park, then lets the time pass. */
  private static final class HookedTicker implements Ticker {
    final ManualClock clock;
    Runnable onPark = () -> {};

    HookedTicker(ManualClock clock) {
      this.clock = clock;
    }

    @Override
    public long wallMillis() {
      return clock.wallMillis();
    }

    @Override
    public long nanoTime() {
      return clock.nanoTime();
    }

    @Override
    public void parkNanos(long nanos) {
      Runnable hook = onPark;
      onPark = () -> {};
      hook.run();
      clock.parkNanos(nanos);
    }
  }

  // Review finding 5: a wall-clock step back while a caller was parked kept it parked for the
  // whole step (an hour), whatever the policy.
  @Test
  void nextId_wallStepsBackWhileParkedWithFailPolicy_throwsInsteadOfParkingForTheStep() {
    ManualClock clock = ManualClock.create();
    HookedTicker ticker = new HookedTicker(clock);
    Snowflake gen =
        Snowflake.builder()
            .node("datacenter", 1)
            .node("worker", 1)
            .timeSource(TimeSource.wallClock(ticker))
            .clockPolicy(ClockPolicy.FAIL)
            .build();
    ticker.onPark = () -> clock.stepBack(Duration.ofHours(1));

    assertThatThrownBy(
            () -> {
              for (int i = 0; i < 4096 * 2; i++) {
                gen.nextId(); // spends the unit, then parks for the next one
              }
            })
        .isInstanceOf(ClockMovedBackwardsException.class)
        .hasMessageContaining("while this call waited");
    assertThat(clock.parked()).isLessThan(Duration.ofMillis(5));
  }

  @Test
  void nextId_wallStepsBackBrieflyWhileParkedWithWaitPolicy_waitsItOut() {
    ManualClock clock = ManualClock.create();
    HookedTicker ticker = new HookedTicker(clock);
    Snowflake gen =
        Snowflake.builder()
            .node("datacenter", 1)
            .node("worker", 1)
            .timeSource(TimeSource.wallClock(ticker))
            .clockPolicy(ClockPolicy.WAIT)
            .maxWait(Duration.ofMillis(100))
            .build();
    ticker.onPark = () -> clock.stepBack(Duration.ofMillis(20));
    long last = 0;
    for (int i = 0; i < 4096 * 2; i++) {
      long id = gen.nextId();
      assertThat(id).isGreaterThan(last);
      assertThat(gen.layout().decode(id).timestampMillis()).isLessThanOrEqualTo(clock.wallMillis());
      last = id;
    }
    assertThat(gen.clockStepCount()).isPositive();
  }

  /** A lease whose grants the test publishes. */
  private static final class HandLease implements NodeLease {
    Consumer<NodeGrant> listener;

    @Override
    public void attach(Consumer<NodeGrant> onGrant, LongSupplier lastIssuedMillis) {
      listener = onGrant;
    }

    @Override
    public NodeStatus status() {
      return new NodeStatus(true, "hand", Map.of(), null, "", 0, 0);
    }

    @Override
    public void close() {}
  }

  private static NodeGrant grant(long validUntil) {
    return new NodeGrant(
        Map.of("datacenter", 1L, "worker", 1L), validUntil, Long.MIN_VALUE, 1, "hand");
  }

  private static Snowflake leased(
      HandLease lease, TimeSource time, long validUntil, Duration lead) {
    NodeLease first =
        new NodeLease() {
          @Override
          public void attach(Consumer<NodeGrant> onGrant, LongSupplier lastIssuedMillis) {
            lease.attach(onGrant, lastIssuedMillis);
            onGrant.accept(grant(validUntil));
          }

          @Override
          public NodeStatus status() {
            return lease.status();
          }

          @Override
          public void close() {}
        };
    return Snowflake.builder().lease(first).timeSource(time).maxLead(lead).build();
  }

  // Review finding 6: with maxLead, a burst that reached a healthy lease's deadline threw
  // LeaseLostException at once; it now waits for the renewal.
  @Test
  void nextId_leadRunsIntoAHealthyLeasesDeadline_waitsForTheRenewalInsteadOfFailing() {
    ManualClock clock = ManualClock.create();
    HookedTicker ticker = new HookedTicker(clock);
    TimeSource time = TimeSource.monotonic(ticker);
    HandLease lease = new HandLease();
    long now = time.millis();
    Snowflake gen = leased(lease, time, now + 5, Duration.ofMillis(20));
    DecodedId d;
    do { // fill every unit before the deadline
      d = gen.layout().decode(gen.nextId());
    } while (d.timestampMillis() < now + 4 || d.sequence() < 4095);
    ticker.onPark = () -> lease.listener.accept(grant(now + 1_000)); // the renewal arrives

    long id = gen.nextId();

    assertThat(gen.layout().decode(id).timestampMillis()).isGreaterThanOrEqualTo(now + 5);
  }

  @Test
  void nextId_leadRunsIntoAnExpiredDeadline_throwsLeaseLost() {
    ManualClock clock = ManualClock.create();
    TimeSource time = TimeSource.monotonic(clock);
    HandLease lease = new HandLease();
    Snowflake gen = leased(lease, time, time.millis() + 5, Duration.ofMillis(20));
    assertThatThrownBy(
            () -> {
              for (int i = 0; i < 4096 * 10; i++) {
                gen.nextId();
              }
            })
        .isInstanceOf(LeaseLostException.class);
  }

  @Test
  void nextIds_batchLargerThanTheLeaseWindow_failsNamingTheBatch() {
    ManualClock clock = ManualClock.create();
    HookedTicker ticker = new HookedTicker(clock);
    TimeSource time = TimeSource.monotonic(ticker);
    HandLease lease = new HandLease();
    long now = time.millis();
    Snowflake gen = leased(lease, time, now + 10, Duration.ZERO);
    ticker.onPark = () -> lease.listener.accept(grant(time.millis() + 10)); // renewed, same window

    assertThatThrownBy(() -> gen.nextIds(new long[4096 * 50]))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("batch");
  }

  // Review finding 7: a wide time field with a coarse unit overflowed the last instant.
  @Test
  void parse_lastInstantBeyondUnixMillis_isRejected() {
    assertThatThrownBy(() -> Layout.parse("time=62,sequence=1,epoch=0,unit=1s"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("layout.time");
    assertThat(Layout.parse("time=52,sequence=11,epoch=0,unit=1ms").lastInstant())
        .isAfter(Instant.parse("2100-01-01T00:00:00Z"));
  }
}
