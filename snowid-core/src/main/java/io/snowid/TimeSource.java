package io.snowid;

/**
 * The time a generator stamps into its IDs, in Unix milliseconds, and the way to wait for it.
 *
 * <p>{@link #monotonic()}, the default, reads the wall clock once and then advances by {@link
 * System#nanoTime()}: an NTP step backwards cannot make it go back, so the generator neither stalls
 * nor fails; it follows the wall clock forward when the wall clock gets ahead, and while it is
 * ahead of the wall clock (by more than 20 ms) it runs at 0.9 of real time until the two meet.
 * {@link #wallClock()} reads {@link System#currentTimeMillis()} on every call, for deployments that
 * want IDs to follow every correction of the wall clock; its steps backwards are handled by the
 * generator's {@link ClockPolicy}.
 */
public interface TimeSource {
  /** The current time in Unix milliseconds. */
  long millis();

  /**
   * Blocks, by parking, until {@link #millis()} reads at least {@code target}, and returns that
   * reading. If the source steps back while waiting it returns early with the lower reading, so
   * that the caller never parks for the length of a clock step. An interrupt does not end the wait
   * early (the ID would carry a future time); the interrupt flag is set again before returning.
   */
  long awaitMillis(long target);

  /**
   * As {@link #awaitMillis(long)}, and also returns early, with the lower reading, as soon as the
   * source reads below {@code seenMillis}, a reading the caller already saw: so a step back that
   * came before the wait began does not park the caller for its length either. Returns a reading of
   * at least {@code target}, or an earlier one: the source stepped back, below the last reading
   * seen or, while the caller was parked, below that reading plus the time parked.
   *
   * <p>The default reads the source once and then waits as {@link #awaitMillis(long)}: a source
   * that can step back should override it, so that no step between that read and its own first read
   * is missed.
   */
  default long awaitMillis(long target, long seenMillis) {
    long now = millis();
    return now >= target || now < seenMillis ? now : awaitMillis(target);
  }

  /**
   * A monotonic nanosecond counter of the clocks this source reads ({@link Ticker#nanoTime()}),
   * with an arbitrary origin: real time, which no step of the wall clock moves. A lease's deadline
   * in real time is kept on it ({@link io.snowid.node.NodeGrant#validUntilNanos()}), and a
   * generator whose source may step back checks it. The default is {@link System#nanoTime()}; the
   * built-in sources answer from their {@link Ticker}, so that a manual ticker drives both.
   */
  default long nanoTime() {
    return System.nanoTime();
  }

  /** Wall clock at the first read, then {@link System#nanoTime()} elapsed; never goes back. */
  static TimeSource monotonic() {
    return new MonotonicTimeSource(Ticker.system());
  }

  /** As {@link #monotonic()}, on the given clocks. */
  static TimeSource monotonic(Ticker ticker) {
    return new MonotonicTimeSource(ticker);
  }

  /** The wall clock, read on every call. */
  static TimeSource wallClock() {
    return new WallTimeSource(Ticker.system());
  }

  /** The wall clock of the given clocks, read on every call. */
  static TimeSource wallClock(Ticker ticker) {
    return new WallTimeSource(ticker);
  }
}
