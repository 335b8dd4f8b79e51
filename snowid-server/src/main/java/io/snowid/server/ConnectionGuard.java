package io.snowid.server;

import io.snowid.Durations;
import java.nio.channels.SelectableChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import org.eclipse.jetty.io.EofException;

/**
 * The connection limit and the header timeout, over the server's connections in the order they were
 * opened.
 *
 * <p>Limit: a connection counts from its accept until its endpoint is destroyed (its file
 * descriptor released: a socket closed while registered with a selector is released only when the
 * selector deregisters it). When an accept makes one more than the limit, the oldest connection
 * with no request in progress is closed (an idle keep-alive connection, one that never sent a byte,
 * one still sending its headers); if every connection has a request in progress, the new one is
 * closed. The acceptor waits ({@link #awaitRoom}) until the count is back within the limit before
 * it accepts again, so the process holds at most one connection more than the limit however fast
 * connections arrive. A new client (a health check) gets in even while a flood of idle connections
 * holds the limit: it does not wait in the kernel's queue behind them, as it would if the server
 * stopped accepting.
 *
 * <p>Header timeout: {@link #sweep} closes every connection whose request's headers have been
 * arriving for longer than the timeout ({@link GuardedEndPoint#headersOverdue}).
 */
final class ConnectionGuard {
  /** The longest the acceptor waits for room before it accepts anyway. */
  private static final long MAX_ROOM_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final int max;
  private final long headerTimeoutNanos;

  /** Open endpoints by accept order (endpoints are opened on pool threads, in any order). */
  private final TreeMap<Long, GuardedEndPoint> open = new TreeMap<>(); // guarded by this

  private final Map<SelectableChannel, Long> accepting = new ConcurrentHashMap<>();
  private long accepts; // guarded by this
  private int alive; // accepted, endpoint not destroyed yet (guarded by this)
  private final LongAdder evicted = new LongAdder();
  private final LongAdder refused = new LongAdder();
  private final LongAdder evictedWriting = new LongAdder();
  private final LongAdder headerTimeouts = new LongAdder();

  ConnectionGuard(int max, Duration headerTimeout) {
    this.max = max;
    this.headerTimeoutNanos = headerTimeout.toNanos();
  }

  /** Blocks the acceptor while the connections alive exceed the limit (at most a second). */
  synchronized void awaitRoom() throws InterruptedException {
    long deadline = System.nanoTime() + MAX_ROOM_WAIT_NANOS;
    for (long left = MAX_ROOM_WAIT_NANOS; alive > max && left > 0; ) {
      TimeUnit.NANOSECONDS.timedWait(this, left);
      left = deadline - System.nanoTime();
    }
  }

  /**
   * A connection was accepted, counted on the acceptor thread (in order) once it has a descriptor.
   */
  synchronized void accepted(SelectableChannel channel) {
    alive++;
    accepting.put(channel, ++accepts);
  }

  /** The accept order of {@code channel}, for its endpoint; taken once. */
  long acceptOrder(SelectableChannel channel) {
    Long order = accepting.remove(channel);
    if (order != null) {
      return order;
    }
    synchronized (this) {
      return ++accepts; // not seen accepted: counted from now
    }
  }

  /** An accepted connection never became an endpoint. */
  synchronized void acceptFailed(SelectableChannel channel) {
    accepting.remove(channel);
    alive--;
    notifyAll();
  }

  /** A connection's endpoint was destroyed: its descriptor is released. */
  synchronized void destroyed() {
    alive--;
    notifyAll();
  }

  /** A connection's endpoint was opened: if it makes one over the limit, room is made for it. */
  void opened(GuardedEndPoint endPoint) {
    GuardedEndPoint victim = null;
    synchronized (this) {
      open.put(endPoint.acceptOrder(), endPoint);
      if (alive > max) {
        victim = oldestIdle(endPoint);
        open.remove(victim.acceptOrder());
      }
    }
    if (victim == endPoint) {
      refused.increment();
      endPoint.close(new EofException("connection limit reached, every connection busy"));
    } else if (victim != null) {
      (victim.idle() ? evicted : evictedWriting).increment();
      victim.close(new EofException("connection limit reached: closed for a newer connection"));
    }
  }

  /**
   * The oldest connection with no request in progress, else the oldest whose response is being
   * written (a client that does not read its answers must not hold the last places), else {@code
   * newest} itself.
   */
  private GuardedEndPoint oldestIdle(GuardedEndPoint newest) {
    for (GuardedEndPoint e : open.values()) {
      if (e != newest && e.idle()) {
        return e;
      }
    }
    for (GuardedEndPoint e : open.values()) {
      if (e != newest && e.writing()) {
        return e; // its client has its answer to read: a slow reader, or one that never reads
      }
    }
    return newest;
  }

  /** A connection's endpoint was closed (its descriptor is released once it is destroyed). */
  synchronized void closed(GuardedEndPoint endPoint) {
    open.remove(endPoint.acceptOrder(), endPoint);
  }

  /** Closes the connections whose request headers are overdue; returns how many. */
  int sweep(long nowNanos) {
    List<GuardedEndPoint> overdue = new ArrayList<>();
    synchronized (this) {
      for (GuardedEndPoint e : open.values()) {
        if (e.headersOverdue(nowNanos, headerTimeoutNanos)) {
          overdue.add(e);
        }
      }
    }
    for (GuardedEndPoint e : overdue) {
      headerTimeouts.increment();
      e.close(
          new TimeoutException(
              "request headers not complete within "
                  + Durations.format(Duration.ofNanos(headerTimeoutNanos))));
    }
    return overdue.size();
  }

  /** Connections counted against the limit: accepted and not yet destroyed. */
  /**
   * Closes every connection with no request in progress: on a stop, a keep-alive connection has
   * nothing to wait for (Jetty would hold it until its shutdown idle timeout, the whole stop
   * timeout). Returns how many.
   */
  int closeIdle() {
    List<GuardedEndPoint> idle = new ArrayList<>();
    synchronized (this) {
      for (GuardedEndPoint e : open.values()) {
        if (e.idle()) {
          idle.add(e);
        }
      }
    }
    for (GuardedEndPoint e : idle) {
      e.close(new EofException("the server is stopping"));
    }
    return idle.size();
  }

  /** Connections whose response is being written. */
  synchronized int writing() {
    return (int) open.values().stream().filter(GuardedEndPoint::writing).count();
  }

  synchronized int size() {
    return alive;
  }

  int max() {
    return max;
  }

  /** Connections closed to make room for a newer one. */
  long evicted() {
    return evicted.sum();
  }

  /** Connections closed to make room for a newer one while their response was being written. */
  long evictedWriting() {
    return evictedWriting.sum();
  }

  /** New connections closed at once because every connection had a request in progress. */
  long refused() {
    return refused.sum();
  }

  /** Connections closed because a request's headers took longer than the header timeout. */
  long headerTimeouts() {
    return headerTimeouts.sum();
  }
}
