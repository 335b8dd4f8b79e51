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
    boolean interrupted = false;
    long now = millis();
    long previous = now;
    while (now < target) {
      ticker.parkNanos((target - now) * 1_000_000L);
      interrupted |= Thread.interrupted();
      now = millis();
      if (now < previous) {
        break; // stepped back while parked: the caller decides, instead of parking for the step
      }
      previous = now;
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
