package io.snowid.server;

import java.util.concurrent.atomic.AtomicLong;

/**
 * An amount that requests take and give back, with a cap: {@link #tryTake} admits a request if what
 * is taken and its own amount stay within the cap, or if nothing is taken at all (a request larger
 * than the cap goes alone).
 */
class Budget {
  private final long cap;
  private final AtomicLong taken = new AtomicLong();

  Budget(long cap) {
    this.cap = cap;
  }

  /** Takes {@code n} if the cap allows; false (nothing taken) if it does not. */
  final boolean tryTake(long n) {
    for (; ; ) {
      long t = taken.get();
      if (t > 0 && (t + n > cap || t + n < 0)) {
        return false;
      }
      if (taken.compareAndSet(t, t + n)) {
        return true;
      }
    }
  }

  /** Gives back what {@link #tryTake} took. */
  final void give(long n) {
    taken.addAndGet(-n);
  }

  /** What is taken now. */
  final long taken() {
    return taken.get();
  }

  /** The cap. */
  final long cap() {
    return cap;
  }
}
