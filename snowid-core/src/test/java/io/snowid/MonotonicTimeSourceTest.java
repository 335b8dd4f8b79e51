package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.testkit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class MonotonicTimeSourceTest {
  private final ManualClock clock = ManualClock.at(Instant.parse("2025-03-01T00:00:00Z"));

  @Test
  void millis_startsAtTheWallClockAndAdvancesWithNanoTime() {
    TimeSource source = TimeSource.monotonic(clock);
    assertThat(source.millis()).isEqualTo(clock.wallMillis());
    clock.advance(Duration.ofMillis(1234));
    assertThat(source.millis()).isEqualTo(Instant.parse("2025-03-01T00:00:01.234Z").toEpochMilli());
  }

  @Test
  void millis_wallStepsBack_doesNotFollowButRunsAtTheSlewRate() {
    TimeSource source = TimeSource.monotonic(clock);
    long before = source.millis();
    clock.stepBack(Duration.ofHours(1));
    clock.advance(Duration.ofMillis(700));
    assertThat(source.millis()).isEqualTo(before + 700);
    clock.advance(Duration.ofMillis(700)); // the resync: an hour ahead, slewing from here
    assertThat(source.millis()).isEqualTo(before + 1400);
    for (int i = 1; i <= 5; i++) {
      clock.advance(Duration.ofMillis(700)); // crosses resync points
      assertThat(source.millis()).isEqualTo(before + 1400 + 630L * i);
    }
  }

  @Test
  void millis_wallStepsForward_followsAtTheNextResync() {
    TimeSource source = TimeSource.monotonic(clock);
    long start = source.millis();
    clock.set(clock.wallInstant().plusSeconds(60));
    clock.advance(Duration.ofMillis(1001));
    assertThat(source.millis()).isEqualTo(start + 61_001);
  }

  @Test
  void millis_preemptedBetweenItsClockReadsAtAResync_neverRunsAheadOfTheWallClock() {
    AtomicBoolean preempt = new AtomicBoolean();
    Ticker ticker =
        new Ticker() {
          @Override
          public long wallMillis() {
            if (preempt.getAndSet(false)) {
              clock.advance(Duration.ofMillis(50)); // descheduled right before this read
            }
            return clock.wallMillis();
          }

          @Override
          public long nanoTime() {
            return clock.nanoTime();
          }
        };
    TimeSource source = TimeSource.monotonic(ticker);
    clock.advance(Duration.ofSeconds(1)); // the next read resyncs
    preempt.set(true);

    source.millis();

    assertThat(source.millis()).isLessThanOrEqualTo(clock.wallMillis());
  }

  @Test
  void awaitMillis_parksForTheExactRemainder() {
    TimeSource source = TimeSource.monotonic(clock);
    long target = source.millis() + 3;
    assertThat(source.awaitMillis(target)).isEqualTo(target);
    assertThat(clock.parks()).isEqualTo(1);
    assertThat(clock.parked()).isEqualTo(Duration.ofMillis(3));
  }

  @Test
  void awaitMillis_realClock_returnsNoEarlierThanTarget() {
    TimeSource source = TimeSource.monotonic();
    long target = source.millis() + 2;
    assertThat(source.awaitMillis(target)).isGreaterThanOrEqualTo(target);
    assertThat(source.millis()).isGreaterThanOrEqualTo(target);
  }

  /** Steps the wall clock forward, lets the source follow it, and takes the step back. */
  private long followAStepThenCorrectIt(TimeSource source, Duration step) {
    source.millis();
    clock.set(clock.wallInstant().plus(step));
    clock.advance(Duration.ofMillis(1001)); // the next read resyncs: the source jumps forward
    long ahead = source.millis();
    assertThat(ahead).isEqualTo(clock.wallMillis());
    clock.stepBack(step); // NTP corrects the step
    return ahead;
  }

  @Test
  void millis_forwardStepCorrected_runsAtTheSlewRateUntilItMeetsTheWallClockThenAtRate1() {
    TimeSource source = TimeSource.monotonic(clock);
    long ahead = followAStepThenCorrectIt(source, Duration.ofSeconds(4));
    clock.advance(Duration.ofMillis(1000)); // at rate 1 up to the next resync, which starts a slew
    long start = source.millis();
    assertThat(start).isEqualTo(ahead + 1000).isEqualTo(clock.wallMillis() + 4000);

    for (int i = 1; i <= 400; i++) { // 40 s: 0.9 of each 100 ms, until 4 s are lost
      clock.advance(Duration.ofMillis(100));
      assertThat(source.millis()).isEqualTo(start + 90L * i);
    }
    assertThat(source.millis()).isEqualTo(clock.wallMillis());
    for (int i = 1; i <= 30; i++) { // met the wall clock: follows it at rate 1, across resyncs
      clock.advance(Duration.ofMillis(100));
      assertThat(source.millis()).isEqualTo(clock.wallMillis());
    }
  }

  @Test
  void millis_forwardStepCorrected_neverReadsLowerThanBefore() {
    TimeSource source = TimeSource.monotonic(clock);
    long last = followAStepThenCorrectIt(source, Duration.ofSeconds(3));
    SplittableRandom random = new SplittableRandom(4);
    for (int i = 0; i < 30_000; i++) {
      clock.advance(Duration.ofNanos(random.nextLong(3_000_000)));
      long now = source.millis();
      assertThat(now).isGreaterThanOrEqualTo(last);
      last = now;
    }
    assertThat(last).isEqualTo(clock.wallMillis()); // about 45 s passed: the 3 s are slewed away
  }

  @Test
  void rejoin_aheadOfTheWallClockAfterACorrectedForwardStep_readsTheWallClockAtOnce() {
    MonotonicTimeSource source = new MonotonicTimeSource(clock);
    source.users().incrementAndGet();
    clock.set(clock.wallInstant().plusSeconds(3600));
    clock.advance(Duration.ofMillis(1001));
    assertThat(source.millis()).isEqualTo(clock.wallMillis()); // followed forward at the resync
    clock.stepBack(Duration.ofSeconds(3600)); // NTP takes the step back
    AtomicBoolean fenced = new AtomicBoolean();

    assertThat(source.rejoin(() -> fenced.set(true))).isTrue();

    assertThat(fenced).isTrue();
    assertThat(source.millis()).isEqualTo(clock.wallMillis());
    clock.advance(Duration.ofMillis(2500)); // at rate 1 from there, through its resyncs
    assertThat(source.millis()).isEqualTo(clock.wallMillis());
  }

  @Test
  void rejoin_withinTheTolerance_staysAndDoesNotFence() {
    MonotonicTimeSource source = new MonotonicTimeSource(clock);
    source.users().incrementAndGet();
    long before = source.millis();
    clock.stepBack(Duration.ofMillis(MonotonicTimeSource.SLEW_ABOVE_MILLIS));
    AtomicBoolean fenced = new AtomicBoolean();

    assertThat(source.rejoin(() -> fenced.set(true))).isFalse();

    assertThat(fenced).isFalse();
    assertThat(source.millis()).isEqualTo(before);
  }

  @Test
  void rejoin_sourceReadByTwoGeneratorsOrNone_slewsInstead() {
    MonotonicTimeSource source = new MonotonicTimeSource(clock);
    long before = source.millis();
    clock.stepBack(Duration.ofSeconds(10));
    AtomicBoolean fenced = new AtomicBoolean();

    assertThat(source.rejoin(() -> fenced.set(true))).as("no generator").isFalse();
    source.users().incrementAndGet();
    source.users().incrementAndGet();
    assertThat(source.rejoin(() -> fenced.set(true))).as("two generators").isFalse();
    source.users().decrementAndGet();
    assertThat(fenced).isFalse();
    assertThat(source.millis()).isEqualTo(before);
    assertThat(source.rejoin(() -> fenced.set(true))).as("one left").isTrue();
    assertThat(source.millis()).isEqualTo(clock.wallMillis());
  }

  @Test
  void millis_wallBehindByTheToleranceOrLess_runsAtRate1() {
    TimeSource source = TimeSource.monotonic(clock);
    long start = source.millis();
    clock.stepBack(Duration.ofMillis(20)); // as NTP's slewing or a coarse wall clock may leave it
    for (int i = 1; i <= 50; i++) { // across 10 resyncs
      clock.advance(Duration.ofMillis(200));
      assertThat(source.millis()).isEqualTo(start + 200L * i);
    }
  }

  @Test
  void millis_wallBehindByMoreThanTheTolerance_slewsAllOfItAway() {
    TimeSource source = TimeSource.monotonic(clock);
    long start = source.millis();
    clock.stepBack(Duration.ofMillis(21));
    clock.advance(Duration.ofMillis(1000)); // the resync: 21 ms ahead, slewed over 210 ms
    assertThat(source.millis()).isEqualTo(start + 1000);
    clock.advance(Duration.ofMillis(210));
    assertThat(source.millis()).isEqualTo(start + 1189).isEqualTo(clock.wallMillis());
    clock.advance(Duration.ofMillis(2000));
    assertThat(source.millis()).isEqualTo(clock.wallMillis());
  }

  @Test
  void millis_wallStepsForwardWhileSlewing_followsItAtTheNextResync() {
    TimeSource source = TimeSource.monotonic(clock);
    followAStepThenCorrectIt(source, Duration.ofSeconds(4));
    clock.advance(Duration.ofMillis(1000)); // slewing from here
    long slewing = source.millis();
    clock.set(clock.wallInstant().plusSeconds(10));

    clock.advance(Duration.ofMillis(1200)); // 1080 ms of the source: past its next resync
    long now = source.millis();

    assertThat(now).isEqualTo(clock.wallMillis()).isGreaterThan(slewing);
    clock.advance(Duration.ofMillis(500));
    assertThat(source.millis()).isEqualTo(now + 500);
  }

  @Test
  void awaitMillis_whileSlewing_parksOnceForTheRealTimeTheSourceNeeds() {
    TimeSource source = TimeSource.monotonic(clock);
    followAStepThenCorrectIt(source, Duration.ofSeconds(4));
    clock.advance(Duration.ofMillis(1000));
    long target = source.millis() + 9; // 10 ms of real time at 0.9

    assertThat(source.awaitMillis(target)).isEqualTo(target);
    assertThat(clock.parks()).isEqualTo(1);
    assertThat(clock.parked()).isEqualTo(Duration.ofMillis(10));
  }

  @Test
  void awaitMillis_targetBeyondTheEndOfTheSlew_returnsTheTargetAfterOnePark() {
    TimeSource source = TimeSource.monotonic(clock);
    long start = source.millis();
    clock.stepBack(Duration.ofMillis(100));
    clock.advance(Duration.ofMillis(1000)); // slews 100 ms over 1 s of real time
    long target = start + 1000 + 900 + 500; // the slew's end, then 500 ms at rate 1

    assertThat(source.awaitMillis(target)).isEqualTo(target);
    assertThat(clock.parks()).isEqualTo(1);
    assertThat(clock.parked()).isEqualTo(Duration.ofMillis(1500));
  }

  // Readers on several threads while the wall clock steps both ways: a reading taken after another
  // reading returned (by any thread) is never lower, also across the start and end of a slew.
  @Test
  void millis_manyThreadsWhileTheWallClockStepsBothWays_neverReadsBelowAnEarlierReading()
      throws InterruptedException {
    clock.autoAdvance(Duration.ofMillis(1)); // every read moves time on: slews start and end
    TimeSource source = TimeSource.monotonic(clock);
    AtomicLong reads = new AtomicLong();
    AtomicLong highest = new AtomicLong(Long.MIN_VALUE);
    AtomicReference<String> failure = new AtomicReference<>();
    AtomicBoolean done = new AtomicBoolean();
    CountDownLatch ready = new CountDownLatch(4);
    List<Thread> readers = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      Thread reader =
          new Thread(
              () -> {
                ready.countDown();
                while (!done.get()) {
                  long before = highest.get();
                  long now = source.millis();
                  if (now < before) {
                    failure.compareAndSet(null, now + " read after " + before);
                  }
                  highest.accumulateAndGet(now, Math::max);
                  reads.incrementAndGet();
                }
              });
      reader.start();
      readers.add(reader);
    }
    ready.await();
    SplittableRandom random = new SplittableRandom(11);
    for (int i = 1; i <= 2_000; i++) {
      while (reads.get() < 300L * i) {
        Thread.onSpinWait();
      }
      if (random.nextBoolean()) {
        clock.stepBack(Duration.ofMillis(random.nextLong(21, 200)));
      } else {
        clock.set(clock.wallInstant().plusMillis(random.nextLong(1, 200)));
      }
    }
    done.set(true);
    for (Thread reader : readers) {
      reader.join();
    }

    assertThat(failure.get()).isNull();
  }

  @Test
  void wallClock_followsStepsBothWays() {
    TimeSource source = TimeSource.wallClock(clock);
    long start = source.millis();
    clock.stepBack(Duration.ofSeconds(5));
    assertThat(source.millis()).isEqualTo(start - 5000);
  }

  @Test
  void unixNanos_randomStepsBothWaysAndSlews_agreesWithMillisAndNeverGoesBack() {
    MonotonicTimeSource source = (MonotonicTimeSource) TimeSource.monotonic(clock);
    SplittableRandom random = new SplittableRandom(26);
    long last = source.unixNanos();
    for (int i = 0; i < 200_000; i++) {
      switch (random.nextInt(40)) {
        case 0 -> clock.stepBack(Duration.ofMillis(random.nextLong(1, 3000)));
        case 1 -> clock.set(clock.wallInstant().plusMillis(random.nextLong(1, 3000)));
        default -> clock.advance(Duration.ofNanos(random.nextLong(2_000_000)));
      }
      long nanos = source.unixNanos();
      assertThat(nanos).isGreaterThanOrEqualTo(last);
      assertThat(source.millis()).isEqualTo(Math.floorDiv(nanos, 1_000_000L)); // no time passed
      last = nanos;
    }
  }

  @Test
  void millis_before1970_isTheFloorOfTheReadingInNanoseconds() {
    ManualClock early = ManualClock.at(Instant.parse("1969-12-31T23:59:59.990Z"));
    MonotonicTimeSource source = (MonotonicTimeSource) TimeSource.monotonic(early);
    SplittableRandom random = new SplittableRandom(1969);
    long last = source.millis();
    for (int i = 0; i < 20_000; i++) { // across 0: about 20 ms
      early.advance(Duration.ofNanos(random.nextLong(2_000)));
      long millis = source.millis();
      assertThat(millis).isEqualTo(Math.floorDiv(source.unixNanos(), 1_000_000L));
      assertThat(millis).isGreaterThanOrEqualTo(last);
      last = millis;
    }
    assertThat(last).isPositive();
  }
}
