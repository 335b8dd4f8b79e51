package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.testkit.IdChecker;
import io.snowid.testkit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Guarantees 3, 4 and 7: honest time, clock safety while running, no silent overflow. */
class SnowflakeTimeTest {
  private final ManualClock clock = ManualClock.at(Instant.parse("2025-06-01T12:00:00Z"));

  private SnowflakeBuilder builder(TimeSource source) {
    return Snowflake.builder().node("datacenter", 1).node("worker", 1).timeSource(source);
  }

  private static long timeOf(Snowflake gen, long id) {
    return gen.layout().decode(id).timestampMillis();
  }

  @Test
  void nextId_belowCapacity_carriesTheSourceTime() {
    TimeSource source = TimeSource.monotonic(clock);
    Snowflake gen = builder(source).build();
    for (int i = 0; i < 1000; i++) {
      long before = source.millis();
      long id = gen.nextId();
      assertThat(timeOf(gen, id)).isEqualTo(before);
      clock.advance(Duration.ofMillis(1));
    }
    assertThat(clock.parks()).isZero();
  }

  // A server's I/O thread must never park; tryNextId answers what it can at once.
  @Test
  void tryNextId_sequenceSpent_returnsNoIdWithoutParkingOrReserving() {
    TimeSource source = TimeSource.monotonic(clock);
    Snowflake gen = builder(source).build();
    long previous = 0;
    int issued = 0;
    for (long id; (id = gen.tryNextId()) != Snowflake.NO_ID; issued++) {
      assertThat(id).isGreaterThan(previous);
      assertThat(timeOf(gen, id)).isEqualTo(source.millis());
      previous = id;
    }

    assertThat(issued).isBetween(2048, 4096); // the unit's sequence, from its random start
    assertThat(clock.parks()).isZero();
    assertThat(gen.tryNextId()).isEqualTo(Snowflake.NO_ID);
    long next = gen.nextId(); // parks for the next unit: nothing was reserved by the refusals
    assertThat(next).isEqualTo(previous + 1 + (1L << 22) - 4096); // next unit, sequence 0
    assertThat(clock.parks()).isOne();
  }

  @Test
  void tryNextId_highWaterMarkAhead_returnsNoIdUntilTheSourcePassesIt() {
    TimeSource source = TimeSource.monotonic(clock);
    long mark = source.millis() + 50;
    Snowflake gen = builder(source).startAfter(mark).build();

    assertThat(gen.tryNextId()).isEqualTo(Snowflake.NO_ID);
    clock.advance(Duration.ofMillis(50));
    assertThat(gen.tryNextId()).isEqualTo(Snowflake.NO_ID);
    clock.advance(Duration.ofMillis(1));
    long id = gen.tryNextId();

    assertThat(timeOf(gen, id)).isEqualTo(mark + 1);
    assertThat(clock.parks()).isZero();
  }

  @Test
  void nextId_sequenceSpent_parksUntilNextUnitAndNeverRunsAhead() {
    TimeSource source = TimeSource.monotonic(clock);
    Snowflake gen = builder(source).build();
    long start = source.millis();
    long previous = 0;
    for (int i = 0; i < 4096 * 5; i++) {
      long id = gen.nextId();
      assertThat(id).isGreaterThan(previous);
      assertThat(timeOf(gen, id)).isLessThanOrEqualTo(source.millis());
      previous = id;
    }
    // the first unit starts at a random offset, the next ones hold 4096 each
    long end = timeOf(gen, previous);
    assertThat(end - start).isBetween(4L, 5L);
    assertThat(clock.parks()).isBetween(4L, 5L);
    assertThat(gen.waitCount()).isEqualTo(clock.parks());
    assertThat(clock.parked()).isLessThanOrEqualTo(Duration.ofMillis(6));
  }

  @Test
  void nextId_frozenClockAtFullLoad_everyCarriedUnitHoldsTheFullSequence() {
    Snowflake gen = builder(TimeSource.monotonic(clock)).build();
    Map<Long, Integer> perUnit = new HashMap<>();
    for (int i = 0; i < 4096 * 10; i++) {
      perUnit.merge(timeOf(gen, gen.nextId()), 1, Integer::sum);
    }
    long first = perUnit.keySet().stream().min(Long::compare).orElseThrow();
    long last = perUnit.keySet().stream().max(Long::compare).orElseThrow();
    for (long t = first + 1; t < last; t++) {
      assertThat(perUnit.get(t)).as("IDs in unit %d", t).isEqualTo(4096);
    }
  }

  @Test
  void nextId_withLead_borrowsAtMostTheLeadWithoutWaiting() {
    TimeSource source = TimeSource.monotonic(clock);
    Snowflake gen = builder(source).maxLead(Duration.ofMillis(5)).build();
    long now = source.millis();
    long max = 0;
    for (int i = 0; i < 4096 * 5; i++) { // fits in units now .. now+5 even after a random start
      max = Math.max(max, timeOf(gen, gen.nextId()));
    }
    assertThat(clock.parks()).isZero();
    assertThat(max).isGreaterThan(now).isLessThanOrEqualTo(now + 5);
    for (int i = 0; i < 4096 * 3; i++) {
      long id = gen.nextId();
      assertThat(timeOf(gen, id)).isLessThanOrEqualTo(source.millis() + 5);
    }
    assertThat(clock.parks()).isPositive();
  }

  @Test
  void nextId_monotonicSourceAndWallStepsBack10s_issuesOnWithoutWaitOrDuplicate() {
    TimeSource source = TimeSource.monotonic(clock);
    Snowflake gen = builder(source).clockPolicy(ClockPolicy.FAIL).build();
    long last = 0;
    for (int i = 0; i < 100; i++) {
      last = gen.nextId();
      clock.advance(Duration.ofMillis(1));
    }
    clock.stepBack(Duration.ofSeconds(10));
    for (int i = 0; i < 100_000; i++) {
      long id = gen.nextId();
      assertThat(id).isGreaterThan(last);
      last = id;
      if (i % 1000 == 0) {
        clock.advance(Duration.ofMillis(1));
      }
    }
    assertThat(gen.clockStepCount()).isZero();
    assertThat(timeOf(gen, last)).isGreaterThan(clock.wallInstant().toEpochMilli() + 9_000);
  }

  @Test
  void nextId_wallSourceFailPolicyStepBack_throwsWithBothTimesAndResumesAfter() {
    Snowflake gen = builder(TimeSource.wallClock(clock)).clockPolicy("fail").build();
    long last = gen.nextId();
    long lastMillis = timeOf(gen, last);
    clock.stepBack(Duration.ofSeconds(10));

    assertThatThrownBy(gen::nextId)
        .isInstanceOfSatisfying(
            ClockMovedBackwardsException.class,
            e -> {
              assertThat(e.lastMillis()).isEqualTo(lastMillis);
              assertThat(e.nowMillis()).isEqualTo(lastMillis - 10_000);
            })
        .hasMessageContaining("10s behind");
    assertThat(clock.parks()).isZero();

    clock.advance(Duration.ofSeconds(10).plusMillis(1));
    assertThat(gen.nextId()).isGreaterThan(last);
  }

  @Test
  void nextId_wallSourceWaitPolicyStepBeyondBound_throwsAtOnce() {
    Snowflake gen = builder(TimeSource.wallClock(clock)).clockPolicy(ClockPolicy.WAIT).build();
    gen.nextId();
    clock.stepBack(Duration.ofSeconds(10));

    assertThatThrownBy(gen::nextId)
        .isInstanceOf(ClockMovedBackwardsException.class)
        .hasMessageContaining("bound of 1s");
    assertThat(clock.parks()).isZero();
  }

  @Test
  void nextId_wallSourceWaitPolicyStepWithinBound_waitsUntilTheClockPasses() {
    Snowflake gen =
        builder(TimeSource.wallClock(clock))
            .clockPolicy(ClockPolicy.WAIT)
            .maxWait(Duration.ofMillis(100))
            .build();
    long last = gen.nextId();
    clock.stepBack(Duration.ofMillis(50));

    long next = gen.nextId();

    assertThat(next).isGreaterThan(last);
    assertThat(timeOf(gen, next)).isLessThanOrEqualTo(clock.wallMillis());
    assertThat(clock.parked()).isBetween(Duration.ofMillis(49), Duration.ofMillis(52));
    assertThat(gen.clockStepCount()).isEqualTo(1);
  }

  @Test
  void nextId_clockbackPolicy_countsStepsInTheFieldThenThrows() {
    Snowflake gen =
        Snowflake.builder()
            .layout("time=41,worker=8,clockback=2,sequence=12,epoch=2020-01-01T00:00:00Z")
            .node("worker", 9)
            .timeSource(TimeSource.wallClock(clock))
            .clockPolicy(ClockPolicy.CLOCKBACK)
            .build();
    java.util.Set<Long> seen = new java.util.HashSet<>();
    long first = gen.nextId();
    seen.add(first);
    for (int step = 1; step <= 3; step++) {
      clock.stepBack(Duration.ofSeconds(10));
      long id = gen.nextId();
      DecodedId d = gen.layout().decode(id);
      assertThat(d.field("clockback")).isEqualTo(step);
      assertThat(d.timestampMillis()).isEqualTo(clock.wallMillis());
      for (int i = 0; i < 5000; i++) { // crosses units by carry
        assertThat(seen.add(gen.nextId())).isTrue();
      }
      assertThat(seen.add(id)).isTrue();
    }
    clock.stepBack(Duration.ofSeconds(10));
    assertThatThrownBy(gen::nextId)
        .isInstanceOf(ClockMovedBackwardsException.class)
        .hasMessageContaining("maximum of 3");
  }

  @Test
  void nextId_clockbackPolicyManyThreads_uniqueAcrossSteps() {
    clock.autoAdvance(Duration.ofNanos(2_000));
    Snowflake gen =
        Snowflake.builder()
            .layout("time=41,worker=6,clockback=4,sequence=12,epoch=2020-01-01T00:00:00Z")
            .node("worker", 9)
            .timeSource(TimeSource.wallClock(clock))
            .clockPolicy(ClockPolicy.CLOCKBACK)
            .build();
    java.util.concurrent.atomic.AtomicLong calls = new java.util.concurrent.atomic.AtomicLong();
    IdChecker.Report report =
        IdChecker.check(
            () -> {
              if (calls.incrementAndGet() % 40_000 == 0) {
                clock.stepBack(Duration.ofSeconds(1)); // while the other threads take IDs
              }
              try {
                return gen.nextId();
              } catch (ClockMovedBackwardsException e) {
                return -1; // exhausted counter; filtered below
              }
            },
            4,
            100_000);
    long[] sorted = report.sortedIds();
    int valid = 0;
    for (int i = 1; i < sorted.length; i++) {
      if (sorted[i] >= 0 && sorted[i - 1] >= 0) {
        assertThat(sorted[i]).isNotEqualTo(sorted[i - 1]);
        valid++;
      }
    }
    assertThat(valid).isGreaterThan(100_000);
    assertThat(gen.clockStepCount()).isGreaterThanOrEqualTo(5);
  }

  @Test
  void build_clockbackPolicyWithoutField_throwsNamingThePolicy() {
    assertThatThrownBy(() -> builder(TimeSource.wallClock(clock)).clockPolicy("clockback").build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("clockPolicy")
        .hasMessageContaining("no clockback field");
  }

  @Test
  void build_pastLastInstant_throwsLayoutExpired() {
    String spec = "time=10,worker=1,sequence=4,epoch=" + (clock.wallMillis() - 2_000);
    assertThatThrownBy(
            () ->
                Snowflake.builder()
                    .layout(spec)
                    .node("worker", 0)
                    .timeSource(TimeSource.monotonic(clock))
                    .build())
        .isInstanceOf(LayoutExpiredException.class)
        .hasMessageContaining("last valid instant");
    assertThatThrownBy(() -> Snowflake.builder().layout("baidu").node("worker", 0).build())
        .isInstanceOf(LayoutExpiredException.class);
  }

  @Test
  void nextId_reachingLastInstant_throwsInsteadOfWrapping() {
    Layout layout =
        Layout.parse("time=10,worker=1,sequence=4,epoch=" + (clock.wallMillis() - 1000));
    Snowflake gen =
        Snowflake.builder()
            .layout(layout)
            .node("worker", 1)
            .timeSource(TimeSource.monotonic(clock))
            .build();
    assertThat(gen.remainingLifetime()).isEqualTo(Duration.ofMillis(24));
    long last = 0;
    int issued = 0;
    try {
      for (; issued < 1000; issued++) {
        last = gen.nextId(); // 16 per unit, frozen clock: parks through the remaining units
      }
    } catch (LayoutExpiredException e) {
      assertThat(e.lastInstant()).isEqualTo(layout.lastInstant());
    }
    assertThat(issued).isBetween(16 * 23, 16 * 24);
    assertThat(layout.decode(last).time()).isEqualTo(1023);
    assertThat(layout.decode(last).sequence()).isEqualTo(15);
    assertThatThrownBy(gen::nextId).isInstanceOf(LayoutExpiredException.class);
    assertThatThrownBy(() -> gen.nextIds(new long[2])).isInstanceOf(LayoutExpiredException.class);
  }

  @Test
  void build_startAfterHighWater_firstIdIsStrictlyLater() {
    TimeSource source = TimeSource.monotonic(clock);
    long highWater = source.millis() + 300;
    Snowflake gen = builder(source).clockPolicy(ClockPolicy.FAIL).startAfter(highWater).build();

    long id = gen.nextId();

    assertThat(timeOf(gen, id)).isEqualTo(highWater + 1);
    assertThat(timeOf(gen, id)).isLessThanOrEqualTo(source.millis());
  }

  @Test
  void build_highWaterFurtherAheadThanMaxWait_throwsNamingBothTimes() {
    TimeSource source = TimeSource.monotonic(clock);
    long now = source.millis();
    assertThatThrownBy(() -> builder(source).startAfter(now + 5_000).build())
        .isInstanceOfSatisfying(
            ClockMovedBackwardsException.class,
            e -> assertThat(e.lastMillis() - e.nowMillis()).isEqualTo(5_000))
        .hasMessageContaining("high-water");
  }

  @Test
  void nextId_interruptedWhileWaiting_finishesAndKeepsTheInterruptFlag() {
    Snowflake gen = builder(TimeSource.monotonic(clock)).build();
    Thread.currentThread().interrupt();
    try {
      long previous = 0;
      for (int i = 0; i < 4096 * 3; i++) { // must wait for at least two units
        long id = gen.nextId();
        assertThat(id).isGreaterThan(previous);
        previous = id;
      }
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
      assertThat(gen.waitCount()).isPositive();
    } finally {
      Thread.interrupted();
    }
  }
}
