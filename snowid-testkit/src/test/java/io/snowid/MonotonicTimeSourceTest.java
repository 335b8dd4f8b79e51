package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.testkit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
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
  void millis_wallStepsBack_doesNotFollow() {
    TimeSource source = TimeSource.monotonic(clock);
    long before = source.millis();
    clock.stepBack(Duration.ofHours(1));
    for (int i = 0; i < 5; i++) {
      clock.advance(Duration.ofMillis(700)); // crosses resync points
      assertThat(source.millis()).isEqualTo(before + 700L * (i + 1));
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

  @Test
  void wallClock_followsStepsBothWays() {
    TimeSource source = TimeSource.wallClock(clock);
    long start = source.millis();
    clock.stepBack(Duration.ofSeconds(5));
    assertThat(source.millis()).isEqualTo(start - 5000);
  }
}
