package io.snowid.server;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The requests in flight, and those a stop cut off: what {@link SnowIdServer#stop()} reports.
 *
 * <p>A request counts from the moment the router takes it until its response is complete or has
 * failed. Once a stop began, a response that fails was cut off: by the connector's shutdown idle
 * timeout (a client that reads too slowly, pipelined requests still queued behind it), or by the
 * stop closing the connection after the stop timeout. Without this count a stop that timed out
 * could look complete, because by the time it checks, Jetty has already failed those responses and
 * nothing is in flight any more.
 */
final class InFlight {
  private final AtomicLong current = new AtomicLong();
  private final AtomicLong cutOff = new AtomicLong();
  private volatile boolean stopping;

  /** A request was taken; {@link #end} follows once, when its response completed or failed. */
  void begin() {
    current.incrementAndGet();
  }

  /** A request's response completed ({@code failed} false) or failed. */
  void end(boolean failed) {
    if (failed && stopping) {
      cutOff.incrementAndGet();
    }
    current.decrementAndGet();
  }

  /** From now on, a response that fails counts as cut off. */
  void stopping() {
    stopping = true;
  }

  /** Whether {@link #stopping()} was called. */
  boolean isStopping() {
    return stopping;
  }

  /** Whether nothing is in flight and no response failed since {@link #stopping()}. */
  boolean drained() {
    return current.get() == 0 && cutOff.get() == 0;
  }

  /** Requests whose response is neither complete nor failed yet. */
  long current() {
    return current.get();
  }

  /** Responses that failed since {@link #stopping()}. */
  long cutOff() {
    return cutOff.get();
  }
}
