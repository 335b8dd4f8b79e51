package io.snowid.server;

import io.snowid.Layout;
import java.time.Duration;

/**
 * The positions that requests waiting in the generator have asked for, together, and their cap.
 *
 * <p>A request that cannot have its IDs at once (a batch, or an {@code /id} behind one) reserves
 * its positions and parks until their time has come; nothing can take them back, so the cap is
 * checked before ({@link Budget}: a batch larger than the cap waits alone). The wait of every
 * admitted request is then bounded by the cap's time at the layout's full rate, plus its own batch.
 * A request refused gets 429 at once instead of waiting.
 */
final class ReservedAhead extends Budget {
  private final Duration capTime;

  ReservedAhead(Duration capTime, Layout layout) {
    super(positions(capTime, layout));
    this.capTime = capTime;
  }

  /** The positions {@code time} holds at the layout's full rate per node; at least 1. */
  static long positions(Duration time, Layout layout) {
    double perSecond = layout.idsPerSecondPerNode();
    double seconds = time.toNanos() / 1e9;
    double n = Math.ceil(perSecond * seconds);
    return n >= Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(1, (long) n);
  }

  /** The cap, as configured: time at the node's full rate. */
  Duration capTime() {
    return capTime;
  }
}
