package io.snowid.torture;

import io.snowid.ClockPolicy;
import io.snowid.SnowflakeBuilder;
import io.snowid.TimeSource;
import java.util.Locale;

/** Which time source and wall-clock policy a worker's generator runs with. */
enum TimeMode {
  /** The default: the wall clock read once, then {@code System.nanoTime()}. */
  MONOTONIC,
  /** {@code TimeSource.wallClock()} with the {@code wait} policy. */
  WAIT,
  /** {@code TimeSource.wallClock()} with the {@code fail} policy. */
  FAIL,
  /** {@code TimeSource.wallClock()} with the {@code clockback} policy (the layout's field). */
  CLOCKBACK;

  /** The mode of a worker slot: the four take turns, so a fleet of 4 or more runs them all. */
  static TimeMode ofSlot(int slot) {
    return values()[slot % values().length];
  }

  static TimeMode named(String name) {
    return valueOf(name.toUpperCase(Locale.ROOT));
  }

  SnowflakeBuilder configure(SnowflakeBuilder b) {
    return switch (this) {
      case MONOTONIC -> b.timeSource(TimeSource.monotonic());
      case WAIT -> b.timeSource(TimeSource.wallClock()).clockPolicy(ClockPolicy.WAIT);
      case FAIL -> b.timeSource(TimeSource.wallClock()).clockPolicy(ClockPolicy.FAIL);
      case CLOCKBACK -> b.timeSource(TimeSource.wallClock()).clockPolicy(ClockPolicy.CLOCKBACK);
    };
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
