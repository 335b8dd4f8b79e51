package io.snowid;

import java.util.concurrent.locks.LockSupport;

/**
 * The raw clocks snowid reads: the wall clock, the monotonic nanosecond counter, and the way to
 * sleep on them. {@link #system()} is the JVM's; tests plug in a manual one (snowid-testkit's
 * {@code ManualClock}) to step the wall clock back or let sleeps pass instantly.
 */
public interface Ticker {
  /** Unix epoch milliseconds of the wall clock; may jump in either direction. */
  long wallMillis();

  /** A monotonic nanosecond counter with an arbitrary origin, as {@link System#nanoTime()}. */
  long nanoTime();

  /** Sleeps about {@code nanos} (or less, spuriously); as {@link LockSupport#parkNanos(long)}. */
  default void parkNanos(long nanos) {
    LockSupport.parkNanos(nanos);
  }

  /** The JVM's clocks. */
  static Ticker system() {
    return SystemTicker.INSTANCE;
  }
}

enum SystemTicker implements Ticker {
  INSTANCE;

  @Override
  public long wallMillis() {
    return System.currentTimeMillis();
  }

  @Override
  public long nanoTime() {
    return System.nanoTime();
  }
}
