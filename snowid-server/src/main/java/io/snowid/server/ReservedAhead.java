package io.snowid.server;

import io.snowid.Layout;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The positions that requests waiting in the generator have asked for, together, and their cap.
 *
 * <p>A request that cannot have its IDs at once (a batch, or an {@code /id} behind one) reserves
 * its positions and parks until their time has come; nothing can take them back, so the cap is
 * checked before: {@link #tryTake} admits a request if what is reserved and its own count stay
 * within the cap, or if nothing is reserved at all (a batch larger than the cap waits alone). The
 * wait of every admitted request is then bounded by the cap's time at the layout's full rate, plus
 * its own batch. A request refused gets 429 at once instead of waiting.
 */
final class ReservedAhead {
  private final long cap;
  private final Duration capTime;
  private final AtomicLong reserved = new AtomicLong();

  ReservedAhead(Duration capTime, Layout layout) {
    this.capTime = capTime;
    this.cap = positions(capTime, layout);
  }

  /** The positions {@code time} holds at the layout's full rate per node; at least 1. */
  static long positions(Duration time, Layout layout) {
    double perSecond = layout.idsPerSecondPerNode();
    double seconds = time.toNanos() / 1e9;
    double n = Math.ceil(perSecond * seconds);
    return n >= Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(1, (long) n);
  }

  /** Takes {@code n} positions if the cap allows; false (nothing taken) if it does not. */
  boolean tryTake(long n) {
    for (; ; ) {
      long r = reserved.get();
      if (r > 0 && (r + n > cap || r + n < 0)) {
        return false;
      }
      if (reserved.compareAndSet(r, r + n)) {
        return true;
      }
    }
  }

  /** Gives back what {@link #tryTake} took, once the request has its IDs (or failed). */
  void give(long n) {
    reserved.addAndGet(-n);
  }

  /** Positions taken by requests still waiting. */
  long reserved() {
    return reserved.get();
  }

  /** The cap, in positions. */
  long cap() {
    return cap;
  }

  /** The cap, as configured: time at the node's full rate. */
  Duration capTime() {
    return capTime;
  }
}
