package io.snowid;

/** The wall clock, read on every call. */
final class WallTimeSource implements TimeSource {
  /**
   * How far a reading after a park may fall short of the reading before it plus the time parked,
   * without being taken for a step back: the wall clock's granularity (coarse on some systems) and
   * NTP's slew (at most 500 ppm; 1000 ppm allowed). A smaller step while parked is waited out.
   */
  private static final long SHORTFALL_MILLIS = 20;

  private final Ticker ticker;

  WallTimeSource(Ticker ticker) {
    this.ticker = ticker;
  }

  /** The clocks this source reads: the generator measures its waits on the same. */
  Ticker ticker() {
    return ticker;
  }

  @Override
  public long millis() {
    return ticker.wallMillis();
  }

  @Override
  public long nanoTime() {
    return ticker.nanoTime();
  }

  @Override
  public long awaitMillis(long target) {
    return awaitMillis(target, Long.MIN_VALUE);
  }

  @Override
  public long awaitMillis(long target, long seenMillis) {
    boolean interrupted = false;
    long seen = seenMillis;
    long now;
    // Every reading is one seen, and so is a reading plus the time parked since it: a later
    // reading below it is a step back, and returns to the caller at once instead of parking for
    // the length of the step. A step while parked may leave the clock above the reading before
    // the park; the time parked shows it all the same.
    while ((now = millis()) < target && now >= seen) {
      long parkedFrom = ticker.nanoTime(); // after the reading: the time parked is not overstated
      ticker.parkNanos((target - now) * 1_000_000L);
      long parked = (ticker.nanoTime() - parkedFrom) / 1_000_000L; // before the next reading
      seen = now + Math.max(0, parked - parked / 1_000 - SHORTFALL_MILLIS);
      interrupted |= Thread.interrupted();
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return now;
  }

  @Override
  public String toString() {
    return "wall-clock";
  }
}
