package io.snowid.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ManualClockTest {
  private final ManualClock clock = ManualClock.at(Instant.parse("2025-01-01T00:00:00Z"));

  @Test
  void advance_movesBothClocks() {
    long nano = clock.nanoTime();
    clock.advance(Duration.ofMillis(5));
    assertThat(clock.nanoTime() - nano).isEqualTo(5_000_000);
    assertThat(clock.wallInstant()).isEqualTo(Instant.parse("2025-01-01T00:00:00.005Z"));
  }

  @Test
  void stepBackAndSet_moveOnlyTheWallClock() {
    long nano = clock.nanoTime();
    clock.stepBack(Duration.ofSeconds(10)).set(Instant.parse("2020-01-01T00:00:00Z"));
    assertThat(clock.nanoTime()).isEqualTo(nano);
    assertThat(clock.wallMillis()).isEqualTo(Instant.parse("2020-01-01T00:00:00Z").toEpochMilli());
  }

  @Test
  void autoAdvance_movesOnEveryReadUntilFrozen() {
    clock.autoAdvance(Duration.ofMillis(1));
    long a = clock.wallMillis();
    long b = clock.wallMillis();
    assertThat(b - a).isEqualTo(1);
    clock.freeze();
    assertThat(clock.wallMillis()).isEqualTo(clock.wallMillis());
  }

  @Test
  void parkNanos_passesTheTimeAndCountsIt() {
    clock.parkNanos(2_000_000);
    assertThat(clock.parks()).isEqualTo(1);
    assertThat(clock.parked()).isEqualTo(Duration.ofMillis(2));
    assertThat(clock.wallInstant()).isEqualTo(Instant.parse("2025-01-01T00:00:00.002Z"));
  }

  @Test
  void beforeRead_runsTheActionJustBeforeTheChosenReadOnly() {
    long start = clock.wallMillis();
    clock.beforeRead(2, () -> clock.stepBack(Duration.ofSeconds(5)));
    clock.beforeRead(3, () -> clock.advance(Duration.ofMillis(1)));

    assertThat(clock.wallMillis()).isEqualTo(start);
    assertThat(clock.wallMillis()).isEqualTo(start - 5_000);
    assertThat(clock.wallMillis()).isEqualTo(start - 4_999);
    assertThat(clock.wallMillis()).isEqualTo(start - 4_999);
  }

  @Test
  void beforeRead_twoActionsForOneRead_runInOrder() {
    long start = clock.wallMillis();
    clock.beforeRead(1, () -> clock.set(Instant.ofEpochMilli(start + 100)));
    clock.beforeRead(1, () -> clock.advance(Duration.ofMillis(1)));

    assertThat(clock.wallMillis()).isEqualTo(start + 101);
  }
}
