package io.snowid;

/**
 * Wall clock at start plus monotonic elapsed time, moved forward (never back) to the wall clock.
 */
final class MonotonicTimeSource implements TimeSource {
  /*
   * millis = (nanoTime - origin) / 1e6, where origin = nanoTime - wall * 1e6 at the start. The
   * subtraction is exact in two's complement even when origin overflows, until the year 2262.
   *
   * Once a second of its own time, a read also reads the wall clock; if the wall clock is ahead
   * (a forward NTP step, a resumed VM whose monotonic clock stood still), the origin moves so
   * that this source jumps forward to it. It never moves back: a step backwards of the wall
   * clock is simply not followed, which is what makes this source clock-safe. The check costs one
   * compare on the hot path; the resync itself is synchronized and rare.
   */
  private static final long NANOS_PER_MILLI = 1_000_000L;
  private static final long RESYNC_EVERY_MILLIS = 1_000L;

  private final Ticker ticker;
  private volatile long origin;
  private volatile long nextResync;

  MonotonicTimeSource(Ticker ticker) {
    this.ticker = ticker;
    long wall = ticker.wallMillis();
    this.origin = ticker.nanoTime() - wall * NANOS_PER_MILLI;
    this.nextResync = wall + RESYNC_EVERY_MILLIS;
  }

  @Override
  public long millis() {
    long m = (ticker.nanoTime() - origin) / NANOS_PER_MILLI;
    return m < nextResync ? m : resync();
  }

  private synchronized long resync() {
    // Read the wall clock first and this source after it, under the lock: a reading taken
    // before (by a thread descheduled since, or racing another resync) would make the time
    // between the two reads count twice and push the origin ahead of the wall clock for good.
    long wall = ticker.wallMillis();
    long m = (ticker.nanoTime() - origin) / NANOS_PER_MILLI;
    if (wall > m) {
      origin -= (wall - m) * NANOS_PER_MILLI;
      m = wall;
    }
    nextResync = m + RESYNC_EVERY_MILLIS;
    return m;
  }

  @Override
  public long nanoTime() {
    return ticker.nanoTime();
  }

  @Override
  public long awaitMillis(long target) {
    boolean interrupted = false;
    long now;
    while ((now = millis()) < target) {
      long remaining = target * NANOS_PER_MILLI - (ticker.nanoTime() - origin);
      ticker.parkNanos(Math.max(remaining, 1));
      interrupted |= Thread.interrupted();
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return now;
  }

  /** As {@link #awaitMillis(long)}: this source never reads below a reading it gave. */
  @Override
  public long awaitMillis(long target, long seenMillis) {
    return awaitMillis(target);
  }

  @Override
  public String toString() {
    return "monotonic";
  }
}
