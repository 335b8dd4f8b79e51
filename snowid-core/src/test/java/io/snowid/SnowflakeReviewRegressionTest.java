package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.lease.LeaseLostException;
import io.snowid.lease.LeaseWindowExceededException;
import io.snowid.node.NodeGrant;
import io.snowid.testkit.ManualClock;
import io.snowid.testkit.ManualLease;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The generator parked under a clock step, a lead at a lease's deadline, a layout's end. */
class SnowflakeReviewRegressionTest {

  private static Snowflake.Builder onWallClock(ManualClock clock) {
    return Snowflake.builder()
        .node("datacenter", 1)
        .node("worker", 1)
        .timeSource(TimeSource.wallClock(clock));
  }

  // A wall-clock step back while a caller is parked is seen when the park ends: fail throws rather
  // than park again for the whole step (an hour), wait waits out a short one.
  @Test
  void nextId_wallStepsBackWhileParkedWithFailPolicy_throwsInsteadOfParkingForTheStep() {
    ManualClock clock = ManualClock.create();
    Snowflake gen = onWallClock(clock).clockPolicy(ClockPolicy.FAIL).build();
    clock.beforeNextPark(() -> clock.stepBack(Duration.ofHours(1)));

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
    Snowflake gen =
        onWallClock(clock).clockPolicy(ClockPolicy.WAIT).maxWait(Duration.ofMillis(100)).build();
    clock.beforeNextPark(() -> clock.stepBack(Duration.ofMillis(20)));
    long last = 0;
    for (int i = 0; i < 4096 * 2; i++) {
      long id = gen.nextId();
      assertThat(id).isGreaterThan(last);
      assertThat(gen.layout().decode(id).timestampMillis()).isLessThanOrEqualTo(clock.wallMillis());
      last = id;
    }
    assertThat(gen.clockStepCount()).isPositive();
  }

  private static NodeGrant grant(long validUntil) {
    return new NodeGrant(
        Map.of("datacenter", 1L, "worker", 1L), validUntil, Long.MIN_VALUE, 1, "hand");
  }

  private static Snowflake leased(ManualLease lease, TimeSource time, Duration lead) {
    return Snowflake.builder().lease(lease).timeSource(time).maxLead(lead).build();
  }

  // With maxLead, a burst that reaches a healthy lease's deadline waits for the renewal instead of
  // throwing LeaseLostException at once.
  @Test
  void nextId_leadRunsIntoAHealthyLeasesDeadline_waitsForTheRenewalInsteadOfFailing() {
    ManualClock clock = ManualClock.create();
    TimeSource time = TimeSource.monotonic(clock);
    long now = time.millis();
    ManualLease lease = new ManualLease(grant(now + 5));
    Snowflake gen = leased(lease, time, Duration.ofMillis(20));
    DecodedId d;
    do { // fill every unit before the deadline
      d = gen.layout().decode(gen.nextId());
    } while (d.timestampMillis() < now + 4 || d.sequence() < 4095);
    clock.beforeNextPark(() -> lease.grant(grant(now + 1_000))); // the renewal arrives

    long id = gen.nextId();

    assertThat(gen.layout().decode(id).timestampMillis()).isGreaterThanOrEqualTo(now + 5);
  }

  @Test
  void nextId_leadRunsIntoAnExpiredDeadline_throwsLeaseLost() {
    ManualClock clock = ManualClock.create();
    TimeSource time = TimeSource.monotonic(clock);
    ManualLease lease = new ManualLease(grant(time.millis() + 5));
    Snowflake gen = leased(lease, time, Duration.ofMillis(20));
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
    TimeSource time = TimeSource.monotonic(clock);
    ManualLease lease = new ManualLease(grant(time.millis() + 10));
    Snowflake gen = leased(lease, time, Duration.ZERO);
    clock.beforeNextPark(() -> lease.grant(grant(time.millis() + 10))); // renewed, same window

    assertThatThrownBy(() -> gen.nextIds(new long[4096 * 50]))
        .isInstanceOfSatisfying(
            LeaseWindowExceededException.class,
            e -> {
              assertThat(e.count()).isEqualTo(4096 * 50);
              assertThat(e.spanMillis()).isGreaterThanOrEqualTo(50);
              assertThat(e.windowMillis()).isLessThanOrEqualTo(11);
            })
        .hasMessageContaining("batch");
  }

  // A layout whose last instant lies beyond Unix milliseconds (a wide time field with a coarse
  // unit) is rejected.
  @Test
  void parse_lastInstantBeyondUnixMillis_isRejected() {
    assertThatThrownBy(() -> Layout.parse("time=62,sequence=1,epoch=0,unit=1s"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("layout.time");
    assertThat(Layout.parse("time=52,sequence=11,epoch=0,unit=1ms").lastInstant())
        .isAfter(Instant.parse("2100-01-01T00:00:00Z"));
  }
}
