package io.snowid.server;

/**
 * The bytes of {@code /ids} responses handed to Jetty and not yet written to their clients, and
 * their cap. A client that stops reading leaves its response in the heap (beyond what the kernel's
 * socket buffers took) until the idle timeout closes its connection; without a cap, enough such
 * clients exhaust the heap. A batch the cap does not admit gets 429 before it is generated.
 */
final class Unsent extends Budget {
  Unsent(long cap) {
    super(cap);
  }

  /** The default cap: a quarter of the heap the JVM may grow to. */
  static long defaultCap() {
    return Runtime.getRuntime().maxMemory() / 4;
  }
}
