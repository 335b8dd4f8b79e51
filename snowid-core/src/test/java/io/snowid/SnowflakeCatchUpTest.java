package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.lease.LeaseLostException;
import io.snowid.node.NodeGrant;
import io.snowid.testkit.ManualClock;
import io.snowid.testkit.ManualLease;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Guarantee 3 at full load: a saturated generator that was off the CPU across time units issues the
 * units it slept through late, stamped with their own time, never ahead of the source and less than
 * {@link Position#CATCH_UP_MILLIS} behind it, instead of losing them; a quiet generator always
 * stamps the time it reads.
 */
class SnowflakeCatchUpTest {
  private final ManualClock clock = ManualClock.at(Instant.parse("2025-06-01T12:00:00Z"));
  private final TimeSource source = TimeSource.monotonic(clock);

  private Snowflake generator() {
    return Snowflake.builder().node("datacenter", 1).node("worker", 1).timeSource(source).build();
  }

  private static long timeOf(Snowflake gen, long id) {
    return gen.layout().decode(id).timestampMillis();
  }

  @Test
  void nextId_saturatedCallerWakesLateByLessThanTheCatchUp_losesNoUnitAndNeverRunsAhead() {
    Snowflake gen = generator();
    long last = SnowflakeClockStepRegressionTest.spendTheUnit(gen);
    long first = timeOf(gen, last) + 1;
    clock.beforeNextPark(() -> clock.advance(Duration.ofMillis(4))); // wakes about 4 ms late
    Map<Long, Integer> perMillisecond = new TreeMap<>();
    long previous = last;
    for (int i = 0; i < 6 * 4096; i++) {
      long id = gen.nextId();
      long now = source.millis();
      assertThat(id).isGreaterThan(previous);
      assertThat(timeOf(gen, id)).isLessThanOrEqualTo(now);
      if (i > 0) { // the first was reserved before the park: it is as late as the wake-up
        assertThat(now - timeOf(gen, id)).isLessThan(Position.CATCH_UP_MILLIS);
      }
      perMillisecond.merge(timeOf(gen, id), 1, Integer::sum);
      previous = id;
    }
    for (long t = first; t < first + 6; t++) {
      assertThat(perMillisecond.get(t)).as("IDs stamped %d", t).isEqualTo(4096);
    }
  }

  @Test
  void nextId_saturatedCallerStalledLongerThanTheCatchUp_resumesAtTheSourceTime() {
    Snowflake gen = generator();
    long last = SnowflakeClockStepRegressionTest.spendTheUnit(gen);
    clock.beforeNextPark(() -> clock.advance(Duration.ofMillis(30)));
    long reserved = gen.nextId(); // reserved before the park, returned after it
    assertThat(timeOf(gen, reserved)).isEqualTo(timeOf(gen, last) + 1);

    long id = gen.nextId();

    assertThat(id).isGreaterThan(reserved);
    assertThat(timeOf(gen, id)).isEqualTo(source.millis());
  }

  @Test
  void nextId_preemptedEarlyInAUnitEnteredAtFullLoad_goesOnInThatUnitThenCatchesUp() {
    Snowflake gen = generator();
    SnowflakeClockStepRegressionTest.spendTheUnit(
        gen); // the next unit is entered by carry: at full load
    long id = 0;
    for (int i = 0; i < 100; i++) {
      id = gen.nextId();
    }
    long unit = timeOf(gen, id);
    clock.advance(Duration.ofMillis(3)); // preempted for 3 ms

    long next = gen.nextId();

    assertThat(next).isEqualTo(id + 1);
    assertThat(timeOf(gen, next)).isEqualTo(unit);
  }

  @Test
  void nextId_aUnitMoreThanHalfUsedButNeverSpent_doesNotCatchUp() {
    Snowflake gen = generator();
    long id;
    do { // busy, from its random start below half, but never spent: not at full load
      id = gen.nextId();
    } while (gen.layout().decode(id).sequence() < 3000);
    clock.advance(Duration.ofMillis(3));

    long next = gen.nextId();

    assertThat(timeOf(gen, next)).isEqualTo(source.millis()).isGreaterThan(timeOf(gen, id));
  }

  @Test
  void nextId_quietGeneratorAfterAFewMilliseconds_stampsTheTimeItReads() {
    Snowflake gen = generator();
    for (int i = 0; i < 5000; i++) { // one ID every 2 ms: every unit is entered fresh
      long id = gen.nextId();
      assertThat(timeOf(gen, id)).isEqualTo(source.millis());
      clock.advance(Duration.ofMillis(2));
    }
    assertThat(clock.parks()).isZero();
  }

  @Test
  void nextId_unitOf10Milliseconds_neverCatchesUp() {
    Snowflake gen =
        Snowflake.builder()
            .layout("time=39,sequence=8,machine=16,epoch=2014-09-01T00:00:00Z,unit=10ms")
            .node("machine", 1)
            .timeSource(source)
            .build();
    SnowflakeClockStepRegressionTest.spendTheUnit(
        gen); // the next unit is entered by carry: at full load
    long id = gen.nextId();
    clock.advance(Duration.ofMillis(10));

    long next = gen.nextId();

    assertThat(timeOf(gen, next)).isEqualTo(source.millis() / 10 * 10);
    assertThat(timeOf(gen, next)).isGreaterThan(timeOf(gen, id));
  }

  // ---- a catch-up is judged at the reading, not its lagging tick ----

  @Test
  void nextId_catchUpWouldRunPastTheLeaseDeadline_issuesNothingAfterIt() {
    long deadline = source.millis() + 3;
    ManualLease lease =
        new ManualLease(
            new NodeGrant(
                Map.of("datacenter", 1L, "worker", 1L), deadline, Long.MIN_VALUE, 1, "hand"));
    Snowflake gen = Snowflake.builder().lease(lease).timeSource(source).build();
    SnowflakeClockStepRegressionTest.spendTheUnit(gen);
    clock.beforeNextPark(() -> clock.advance(Duration.ofMillis(5))); // wakes after the deadline
    gen.nextId(); // reserved before the deadline, before the park

    assertThat(source.millis()).isGreaterThan(deadline);
    assertThatThrownBy(gen::nextId).isInstanceOf(LeaseLostException.class);
    assertThat(gen.tryNextId()).isEqualTo(Snowflake.NO_ID);
  }

  @Test
  void nextId_catchUpWouldRunPastTheLayoutsEnd_throwsExpired() {
    Layout tiny = Layout.parse("time=10,worker=1,sequence=4,epoch=" + (source.millis() - 1020));
    Snowflake gen = Snowflake.builder().layout(tiny).node("worker", 0).timeSource(source).build();
    long max = tiny.sequenceField().max();
    long id;
    do {
      id = gen.nextId();
    } while (tiny.decode(id).sequence() < max
        || tiny.decode(id).timestampMillis() < source.millis());
    clock.beforeNextPark(() -> clock.advance(Duration.ofMillis(8))); // wakes past the last instant
    gen.nextId();

    assertThat(source.millis()).isGreaterThan(tiny.lastInstant().toEpochMilli());
    assertThatThrownBy(gen::nextId).isInstanceOf(LayoutExpiredException.class);
  }

  @Test
  void nextId_wallClockStepsBackAfterACatchUpWithFailPolicy_throwsAtOnce() {
    TimeSource wall = TimeSource.wallClock(clock);
    Snowflake gen =
        Snowflake.builder()
            .node("datacenter", 1)
            .node("worker", 1)
            .timeSource(wall)
            .clockPolicy(ClockPolicy.FAIL)
            .build();
    SnowflakeClockStepRegressionTest.spendTheUnit(gen);
    clock.beforeNextPark(() -> clock.advance(Duration.ofMillis(6)));
    gen.nextId(); // reserved, returned 6 ms late
    long id = gen.nextId(); // a catch-up: its reading counts
    assertThat(timeOf(gen, id)).isLessThan(wall.millis());
    clock.stepBack(Duration.ofMillis(3)); // below the catch-up's reading: a step back
    for (int i = 0; i < 6 * 4096; i++) { // the catch-up goes on up to the stepped clock, then:
      long before = wall.millis();
      try {
        long next = gen.nextId();
        assertThat(timeOf(gen, next)).isLessThanOrEqualTo(before);
      } catch (ClockMovedBackwardsException e) {
        assertThat(clock.parks()).isOne(); // only the park before the catch-up: it did not wait
        return;
      }
    }
    throw new AssertionError("the step back was never seen under the fail policy");
  }
}
