package io.snowid;

/** The wall clock, read on every call. */
final class WallTimeSource implements TimeSource {
  private final Ticker ticker;

  WallTimeSource(Ticker ticker) {
    this.ticker = ticker;
  }

  @Override
  public long millis() {
    return ticker.wallMillis();
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
    // Every reading is one seen: a later reading below it is a step back, and returns to the
    // caller at once instead of parking for the length of the step.
    while ((now = millis()) < target && now >= seen) {
      seen = now;
      ticker.parkNanos((target - now) * 1_000_000L);
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
