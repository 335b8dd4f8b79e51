package io.snowid.etcd;

import io.etcd.jetcd.lease.LeaseGrantResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * etcd leases granted ahead, one per lease time in seconds, so that an acquisition need not wait
 * for a grant (docs/design.md, "The etcd:// backend"). A spare is asked {@link #HEADROOM_SECONDS}
 * longer than the leases it serves, and taken only while what is left of it, counted from before
 * its grant was sent, covers the lease's ttl; one too old is revoked instead. A taken spare is
 * replaced in the background; closing revokes them.
 */
final class EtcdSpares implements AutoCloseable {
  static final long HEADROOM_SECONDS = 1;

  /** How long {@link #close()} waits for grants in flight, to revoke them. */
  private static final long CLOSE_WAIT_MILLIS = 1_000;

  private record Spare(CompletableFuture<LeaseGrantResponse> grant, long sentNanos) {}

  private final EtcdCalls etcd;
  private final Map<Long, Spare> spares = new ConcurrentHashMap<>();
  private volatile boolean closed;

  EtcdSpares(EtcdCalls etcd) {
    this.etcd = etcd;
  }

  /**
   * Takes the spare for leases of {@code seconds} if it is granted and at least {@code ttlMillis}
   * of it is left: its etcd lease id, else 0.
   */
  long take(long seconds, long ttlMillis) {
    Spare s = spares.remove(seconds);
    if (s == null) {
      return 0;
    }
    if (!s.grant().isDone()) {
      if (spares.putIfAbsent(seconds, s) != null) {
        revokeWhenGranted(s);
      }
      return 0;
    }
    if (s.grant().isCompletedExceptionally()) {
      return 0;
    }
    LeaseGrantResponse g = s.grant().join();
    if (left(s) < ttlMillis) {
      etcd.revokeQuietly(g.getID());
      return 0;
    }
    return g.getID();
  }

  /** Whether {@link #take} would now give a spare (without taking it). */
  boolean ready(long seconds, long ttlMillis) {
    Spare s = spares.get(seconds);
    return s != null
        && s.grant().isDone()
        && !s.grant().isCompletedExceptionally()
        && left(s) >= ttlMillis;
  }

  private static long left(Spare s) {
    return s.grant().join().getTTL() * 1000 - (System.nanoTime() - s.sentNanos()) / 1_000_000;
  }

  /** Grants a spare for leases of {@code seconds} in the background, unless one is there. */
  void replenish(long seconds) {
    if (closed || spares.containsKey(seconds)) {
      return;
    }
    long sent = System.nanoTime();
    Spare s = new Spare(etcd.grantAsync(seconds + HEADROOM_SECONDS), sent);
    if (spares.putIfAbsent(seconds, s) != null || (closed && spares.remove(seconds, s))) {
      revokeWhenGranted(s);
    }
  }

  private void revokeWhenGranted(Spare s) {
    var unused = s.grant().thenAccept(g -> etcd.revokeQuietly(g.getID()));
  }

  /** Revokes every spare, waiting up to a second for grants still in flight. */
  @Override
  public void close() {
    closed = true;
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_WAIT_MILLIS);
    for (Long seconds : List.copyOf(spares.keySet())) {
      Spare s = spares.remove(seconds);
      if (s == null) {
        continue;
      }
      try {
        LeaseGrantResponse g =
            s.grant().get(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
        etcd.revokeQuietly(g.getID());
      } catch (ExecutionException | TimeoutException e) {
        // not granted, or it expires by itself
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
