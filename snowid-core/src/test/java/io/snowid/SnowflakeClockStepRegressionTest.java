package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.node.NodeGrant;
import io.snowid.testkit.ManualClock;
import io.snowid.testkit.ManualLease;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Wall-clock steps that land between two reads inside one call: each policy must keep its promise
 * however the step and the reads interleave.
 *
 * <p>Reads of the wall clock in a call that finds its unit spent: 1 in {@code nextId}, 2 in the
 * slow path, 3 when it checks for a step back, 4 the first read of the wait for the next unit.
 */
class SnowflakeClockStepRegressionTest {
  private static final String CLOCKBACK_LAYOUT =
      "time=41,worker=8,clockback=2,sequence=12,epoch=2020-01-01T00:00:00Z";

  private final ManualClock clock = ManualClock.create();

  private SnowflakeBuilder onWallClock(ClockPolicy policy) {
    return Snowflake.builder()
        .node("datacenter", 1)
        .node("worker", 1)
        .timeSource(TimeSource.wallClock(clock))
        .clockPolicy(policy);
  }

  private Snowflake clockbackGenerator() {
    return Snowflake.builder()
        .layout(CLOCKBACK_LAYOUT)
        .node("worker", 9)
        .timeSource(TimeSource.wallClock(clock))
        .clockPolicy(ClockPolicy.CLOCKBACK)
        .build();
  }

  /**
   * Issues until the current unit's sequence is spent (frozen clock); returns the last ID. The
   * catch-up tests use it too.
   */
  static long spendTheUnit(Snowflake gen) {
    long max = gen.layout().sequenceField().max();
    long id;
    do {
      id = gen.nextId();
    } while (gen.layout().decode(id).sequence() < max);
    return id;
  }

  private static long timeOf(Snowflake gen, long id) {
    return gen.layout().decode(id).timestampMillis();
  }

  /** The step lands at the slow path's read; the millisecond ticks before the step check. */
  private void stepBackThenTickBeforeTheCheck(Duration step) {
    clock.beforeRead(2, () -> clock.stepBack(step));
    clock.beforeRead(3, () -> clock.advance(Duration.ofMillis(1)));
  }

  /** The step lands after the step check, at the first read of the wait for the next unit. */
  private void stepBackBeforeTheWait(Duration step) {
    clock.beforeRead(4, () -> clock.stepBack(step));
  }

  // ---- a step is a step whether or not the millisecond ticked in between ----

  @Test
  void nextId_wallClockStepsBackAndTicksBetweenReadsWithFailPolicy_throwsAtOnce() {
    Snowflake gen = onWallClock(ClockPolicy.FAIL).build();
    long last = spendTheUnit(gen);
    stepBackThenTickBeforeTheCheck(Duration.ofSeconds(5));

    assertThatThrownBy(gen::nextId)
        .isInstanceOfSatisfying(
            ClockMovedBackwardsException.class,
            e -> {
              assertThat(e.lastMillis()).isEqualTo(timeOf(gen, last));
              assertThat(e.lastMillis() - e.nowMillis()).isEqualTo(4_999);
            })
        .hasMessageContaining("policy is fail");
    assertThat(clock.parks()).isZero();
    assertThat(gen.clockStepCount()).isEqualTo(1);
  }

  @Test
  void nextId_wallClockStepsBackAndTicksBetweenReadsBeyondMaxWait_throwsAtOnce() {
    Snowflake gen = onWallClock(ClockPolicy.WAIT).maxWait(Duration.ofSeconds(1)).build();
    spendTheUnit(gen);
    stepBackThenTickBeforeTheCheck(Duration.ofSeconds(5));

    assertThatThrownBy(gen::nextId)
        .isInstanceOf(ClockMovedBackwardsException.class)
        .hasMessageContaining("bound of 1s");
    assertThat(clock.parks()).isZero();
  }

  @Test
  void nextId_wallClockStepsBackAndTicksBetweenReadsWithinMaxWait_waitsAndCountsTheStep() {
    Snowflake gen = onWallClock(ClockPolicy.WAIT).maxWait(Duration.ofMillis(100)).build();
    long last = spendTheUnit(gen);
    stepBackThenTickBeforeTheCheck(Duration.ofMillis(50));

    long id = gen.nextId();

    assertThat(id).isGreaterThan(last);
    assertThat(timeOf(gen, id)).isLessThanOrEqualTo(clock.wallInstant().toEpochMilli());
    assertThat(gen.clockStepCount()).isEqualTo(1);
    assertThat(clock.parked()).isLessThanOrEqualTo(Duration.ofMillis(50));
  }

  @Test
  void nextId_wallClockStepsBackAndTicksBetweenReadsWithClockbackPolicy_countsTheStep() {
    Snowflake gen = clockbackGenerator();
    long last = spendTheUnit(gen);
    stepBackThenTickBeforeTheCheck(Duration.ofSeconds(5));

    long id = gen.nextId();

    DecodedId d = gen.layout().decode(id);
    assertThat(d.field("clockback")).isEqualTo(1);
    assertThat(d.timestampMillis()).isEqualTo(timeOf(gen, last) - 4_999);
    assertThat(gen.clockStepCount()).isEqualTo(1);
    assertThat(clock.parks()).isZero();
  }

  @Test
  void nextId_wallClockStepsBackJustBeforeTheWaitWithFailPolicy_throwsAtOnce() {
    Snowflake gen = onWallClock(ClockPolicy.FAIL).build();
    spendTheUnit(gen);
    stepBackBeforeTheWait(Duration.ofHours(1));

    assertThatThrownBy(gen::nextId)
        .isInstanceOf(ClockMovedBackwardsException.class)
        .hasMessageContaining("stepped back");
    assertThat(clock.parks()).isZero();
    assertThat(gen.clockStepCount()).isEqualTo(1);
  }

  @Test
  void nextId_wallClockStepsBackJustBeforeTheWaitBeyondMaxWait_throwsAtOnce() {
    Snowflake gen = onWallClock(ClockPolicy.WAIT).maxWait(Duration.ofSeconds(1)).build();
    spendTheUnit(gen);
    stepBackBeforeTheWait(Duration.ofHours(1));

    assertThatThrownBy(gen::nextId).isInstanceOf(ClockMovedBackwardsException.class);
    assertThat(clock.parks()).isZero();
  }

  // ---- a clockback call already waiting when the clock steps back counts the step ----

  @Test
  void nextId_wallClockStepsBackWhileParkedWithClockbackPolicy_countsTheStep() {
    Snowflake gen = clockbackGenerator();
    long last = spendTheUnit(gen);
    clock.beforeNextPark(() -> clock.stepBack(Duration.ofSeconds(10)));

    long id = gen.nextId();

    DecodedId d = gen.layout().decode(id);
    assertThat(d.field("clockback")).isEqualTo(1);
    assertThat(d.timestampMillis()).isEqualTo(clock.wallInstant().toEpochMilli());
    assertThat(d.timestampMillis()).isLessThan(timeOf(gen, last));
    assertThat(gen.clockStepCount()).isEqualTo(1);
    assertThat(clock.parked()).isLessThan(Duration.ofMillis(5));
  }

  @Test
  void nextId_wallClockStepsBackJustBeforeTheWaitWithClockbackPolicy_countsTheStep() {
    Snowflake gen = clockbackGenerator();
    long last = spendTheUnit(gen);
    stepBackBeforeTheWait(Duration.ofHours(1));

    long id = gen.nextId();

    DecodedId d = gen.layout().decode(id);
    assertThat(d.field("clockback")).isEqualTo(1);
    assertThat(d.timestampMillis()).isEqualTo(timeOf(gen, last) - 3_600_000);
    assertThat(gen.clockStepCount()).isEqualTo(1);
    assertThat(clock.parks()).isZero();
  }

  // ---- a step back while a call is parked is seen when the park ends ----

  // fail throws rather than park again for the whole step (an hour), wait waits out a short one.
  @Test
  void nextId_wallStepsBackWhileParkedWithFailPolicy_throwsInsteadOfParkingForTheStep() {
    Snowflake gen = onWallClock(ClockPolicy.FAIL).build();
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
    Snowflake gen = onWallClock(ClockPolicy.WAIT).maxWait(Duration.ofMillis(100)).build();
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

  // ---- one step under fail counts once, not once per failing call ----

  @Test
  void clockStepCount_oneStepFailsManyCallsWithFailPolicy_countsTheStepOnce() {
    Snowflake gen = onWallClock(ClockPolicy.FAIL).build();
    gen.nextId();
    clock.stepBack(Duration.ofSeconds(10));
    for (int i = 0; i < 1_000; i++) {
      assertThatThrownBy(gen::nextId).isInstanceOf(ClockMovedBackwardsException.class);
      clock.advance(Duration.ofMillis(1)); // the source moves on, still below what it read
    }
    assertThat(gen.clockStepCount()).isEqualTo(1);

    clock.stepBack(Duration.ofSeconds(5)); // a second step, further back

    assertThatThrownBy(gen::nextId).isInstanceOf(ClockMovedBackwardsException.class);
    assertThat(gen.clockStepCount()).isEqualTo(2);
  }

  @Test
  void clockStepCount_stepMetByACallThatWaitsThenByManyWithFailPolicy_countsTheStepOnce() {
    Snowflake gen = onWallClock(ClockPolicy.FAIL).build();
    spendTheUnit(gen);
    clock.beforeNextPark(() -> clock.stepBack(Duration.ofSeconds(10)));
    assertThatThrownBy(gen::nextId).hasMessageContaining("while this call waited");

    for (int i = 0; i < 100; i++) {
      assertThatThrownBy(gen::nextId).isInstanceOf(ClockMovedBackwardsException.class);
    }

    assertThat(gen.clockStepCount()).isEqualTo(1);
  }

  // ---- a step back before the first ID does not park the first call for the whole step ----

  /**
   * A fresh lease as the file: backend grants one: the generator must start after a high-water mark
   * 2 s ahead, past the deadline 1.6 s ahead; renewed, 1.6 s ahead, whenever a caller parks.
   */
  private ManualLease freshLease() {
    long now = clock.wallInstant().toEpochMilli();
    long highWater = now + 2_000;
    ManualLease lease =
        new ManualLease(
            new NodeGrant(Map.of("datacenter", 1L, "worker", 1L), now + 1_600, highWater, 1, "h"));
    clock.beforeEveryPark(
        () ->
            lease.grant(
                new NodeGrant(
                    Map.of("datacenter", 1L, "worker", 1L),
                    clock.wallInstant().toEpochMilli() + 1_600,
                    highWater,
                    1,
                    "h")));
    return lease;
  }

  private Snowflake onFreshLease(String layout, ClockPolicy policy) {
    return Snowflake.builder()
        .layout(layout)
        .lease(freshLease())
        .timeSource(TimeSource.wallClock(clock))
        .clockPolicy(policy)
        .maxWait(Duration.ofSeconds(1))
        .build();
  }

  @Test
  void nextId_wallClockStepsBackBeforeTheFirstIdUnderAHighWaterMarkWithFailPolicy_throwsAtOnce() {
    Snowflake gen = onFreshLease("twitter", ClockPolicy.FAIL);
    clock.stepBack(Duration.ofSeconds(60));

    assertThatThrownBy(gen::nextId)
        .isInstanceOfSatisfying(
            ClockMovedBackwardsException.class,
            e -> assertThat(e.lastMillis() - e.nowMillis()).isEqualTo(60_000))
        .hasMessageContaining("policy is fail");
    assertThat(clock.parks()).isZero();
    assertThat(gen.clockStepCount()).isEqualTo(1);
  }

  @Test
  void nextId_wallClockStepsBackBeforeTheFirstIdUnderAHighWaterMarkBeyondMaxWait_throwsAtOnce() {
    Snowflake gen = onFreshLease("twitter", ClockPolicy.WAIT);
    clock.stepBack(Duration.ofSeconds(60));

    assertThatThrownBy(gen::nextId)
        .isInstanceOf(ClockMovedBackwardsException.class)
        .hasMessageContaining("bound of 1s");
    assertThat(clock.parks()).isZero();
  }

  @Test
  void nextId_wallClockStepsBackBeforeTheFirstIdUnderAHighWaterMarkWithinMaxWait_waitsItOut() {
    long highWater = clock.wallInstant().toEpochMilli() + 2_000;
    Snowflake gen = onFreshLease("twitter", ClockPolicy.WAIT);
    clock.stepBack(Duration.ofMillis(500));

    long id = gen.nextId();

    assertThat(timeOf(gen, id)).isEqualTo(highWater + 1);
    assertThat(timeOf(gen, id)).isLessThanOrEqualTo(clock.wallInstant().toEpochMilli());
    assertThat(gen.clockStepCount()).isEqualTo(1);
  }

  @Test
  void nextId_wallClockStepsBackBeforeTheFirstIdUnderAHighWaterMarkWithClockbackPolicy_countsIt() {
    Snowflake gen = onFreshLease(CLOCKBACK_LAYOUT, ClockPolicy.CLOCKBACK);
    clock.stepBack(Duration.ofSeconds(60));

    // counted, and refused: a clockback count below the high-water mark could repeat IDs the
    // previous holder of the node values issued under that count
    assertThatThrownBy(gen::nextId)
        .isInstanceOf(ClockMovedBackwardsException.class)
        .hasMessageContaining("high-water mark");
    assertThat(gen.clockStepCount()).isEqualTo(1);
    assertThat(clock.parks()).isZero();
  }

  @Test
  void nextId_wallClockStepsBackBeforeTheFirstIdWithClockbackPolicy_countsTheStep() {
    Snowflake gen = clockbackGenerator();
    long built = clock.wallInstant().toEpochMilli();
    clock.stepBack(Duration.ofSeconds(5));

    DecodedId d = gen.layout().decode(gen.nextId());

    assertThat(d.field("clockback")).isEqualTo(1);
    assertThat(d.timestampMillis()).isEqualTo(built - 5_000);
    assertThat(gen.clockStepCount()).isEqualTo(1);
  }

  @Test
  void nextId_wallClockStepsBackBeforeTheFirstIdWithFailPolicy_throwsAtOnce() {
    Snowflake gen = onWallClock(ClockPolicy.FAIL).build();
    clock.stepBack(Duration.ofSeconds(5));

    assertThatThrownBy(gen::nextId)
        .isInstanceOf(ClockMovedBackwardsException.class)
        .hasMessageContaining("policy is fail");
    assertThat(clock.parks()).isZero();
  }

  // ---- under wait, maxWait bounds the steps of one call added up, not each step ----

  @Test
  void nextId_twoStepsInOneCallAddUpBeyondMaxWaitWithWaitPolicy_throwsWithinTheBound() {
    Snowflake gen = onWallClock(ClockPolicy.WAIT).maxWait(Duration.ofSeconds(1)).build();
    spendTheUnit(gen);
    clock.stepBack(Duration.ofMillis(600));
    clock.beforeNextPark(() -> clock.stepBack(Duration.ofMillis(700))); // 1300 ms in all

    assertThatThrownBy(gen::nextId)
        .isInstanceOf(ClockMovedBackwardsException.class)
        .hasMessageContaining("bound of 1s");
    assertThat(clock.parked()).isLessThanOrEqualTo(Duration.ofSeconds(1));
    assertThat(gen.clockStepCount()).isEqualTo(2);
  }

  @Test
  void nextId_stepWhileParkedStaysAboveTheCallsReadingBeyondMaxWaitInAll_throwsWithinTheBound() {
    // -900 ms, then -500 ms while the call waits. When the park ends, the source reads above the
    // reading the call had (it moved on for longer than it stepped back): only the time parked
    // shows that it stepped back meanwhile.
    Snowflake gen = onWallClock(ClockPolicy.WAIT).maxWait(Duration.ofSeconds(1)).build();
    spendTheUnit(gen);
    clock.stepBack(Duration.ofMillis(900));
    clock.beforeNextPark(() -> clock.stepBack(Duration.ofMillis(500)));

    assertThatThrownBy(gen::nextId)
        .isInstanceOf(ClockMovedBackwardsException.class)
        .hasMessageContaining("bound of 1s");
    assertThat(clock.parked()).isLessThanOrEqualTo(Duration.ofSeconds(1));
    assertThat(gen.clockStepCount()).isEqualTo(2);
  }

  @Test
  void nextId_twoStepsInOneCallWithinMaxWaitInAllWithWaitPolicy_waitsThemOut() {
    Snowflake gen = onWallClock(ClockPolicy.WAIT).maxWait(Duration.ofSeconds(1)).build();
    long last = spendTheUnit(gen);
    clock.stepBack(Duration.ofMillis(400));
    clock.beforeNextPark(() -> clock.stepBack(Duration.ofMillis(500))); // 900 ms in all

    long id = gen.nextId();

    assertThat(id).isGreaterThan(last);
    assertThat(timeOf(gen, id)).isLessThanOrEqualTo(clock.wallInstant().toEpochMilli());
    assertThat(gen.clockStepCount()).isEqualTo(2);
  }

  @Test
  void awaitMillis_wallClockStepsBackWhileParkedAboveTheLastReading_returnsTheEarlierReading() {
    TimeSource wall = TimeSource.wallClock(clock);
    long start = wall.millis();
    clock.beforeNextPark(() -> clock.stepBack(Duration.ofMillis(500)));

    long reached = wall.awaitMillis(start + 900, start);

    assertThat(reached).isEqualTo(start + 400); // above `start`, 500 ms short of where it was due
    assertThat(clock.parked()).isEqualTo(Duration.ofMillis(900));
  }

  // ---- a step back is the policy's also when the next run reaches the lease's deadline ----

  private static NodeGrant grant(long validUntil) {
    return new NodeGrant(
        Map.of("datacenter", 1L, "worker", 1L), validUntil, Long.MIN_VALUE, 1, "hand");
  }

  /** Spends every unit before the lease's deadline; the clock follows to the last of them. */
  private static void spendUpToTheDeadline(Snowflake gen, long deadline) {
    long max = gen.layout().sequenceField().max();
    DecodedId d;
    do {
      d = gen.layout().decode(gen.nextId());
    } while (d.timestampMillis() < deadline - 1 || d.sequence() < max);
  }

  @Test
  void nextId_wallClockStepsBackWhenTheNextRunIsPastTheLeaseDeadlineWithFailPolicy_throwsAtOnce() {
    long deadline = clock.wallInstant().toEpochMilli() + 3;
    ManualLease lease = new ManualLease(grant(deadline));
    Snowflake gen =
        Snowflake.builder()
            .lease(lease)
            .timeSource(TimeSource.wallClock(clock))
            .clockPolicy(ClockPolicy.FAIL)
            .build();
    spendUpToTheDeadline(gen, deadline);
    long parks = clock.parks();
    clock.stepBack(Duration.ofSeconds(10));

    assertThatThrownBy(gen::nextId)
        .isInstanceOf(ClockMovedBackwardsException.class)
        .hasMessageContaining("policy is fail");
    assertThat(clock.parks()).isEqualTo(parks);
  }

  @Test
  void nextId_wallClockStepsBackWhenTheNextRunIsPastTheLeaseDeadlineWithinMaxWait_countsTheStep() {
    long deadline = clock.wallInstant().toEpochMilli() + 3;
    ManualLease lease = new ManualLease(grant(deadline));
    lease.onRenewalRequest(() -> lease.grant(grant(clock.wallInstant().toEpochMilli() + 1_000)));
    Snowflake gen =
        Snowflake.builder()
            .lease(lease)
            .timeSource(TimeSource.wallClock(clock))
            .clockPolicy(ClockPolicy.WAIT)
            .maxWait(Duration.ofMillis(100))
            .build();
    spendUpToTheDeadline(gen, deadline);
    clock.stepBack(Duration.ofMillis(50));

    long id = gen.nextId();

    assertThat(gen.layout().decode(id).timestampMillis()).isEqualTo(deadline);
    assertThat(gen.clockStepCount()).isEqualTo(1);
  }
}
