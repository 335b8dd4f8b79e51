package io.snowid.server;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of {@code /ids} responses handed to Jetty and not yet written to their clients, and
 * their cap. A client that stops reading leaves its response in the heap (beyond what the kernel's
 * socket buffers took) until the idle timeout closes its connection; without a cap, enough such
 * clients exhaust the heap. {@link #tryTake} admits a response if what is unsent and its own size
 * stay within the cap, or if nothing is unsent; a batch refused gets 429 before it is generated.
 */
final class Unsent {
  private final long cap;
  private final AtomicLong bytes = new AtomicLong();

  Unsent(long cap) {
    this.cap = cap;
  }

  /** The default cap: a quarter of the heap the JVM may grow to. */
  static long defaultCap() {
    return Runtime.getRuntime().maxMemory() / 4;
  }

  /** Takes {@code n} bytes if the cap allows; false (nothing taken) if it does not. */
  boolean tryTake(long n) {
    for (; ; ) {
      long b = bytes.get();
      if (b > 0 && b + n > cap) {
        return false;
      }
      if (bytes.compareAndSet(b, b + n)) {
        return true;
      }
    }
  }

  /** Gives back what {@link #tryTake} took, once its response was written or failed. */
  void give(long n) {
    bytes.addAndGet(-n);
  }

  /** Bytes of responses not yet written. */
  long bytes() {
    return bytes.get();
  }

  /** The cap, in bytes. */
  long cap() {
    return cap;
  }
}
