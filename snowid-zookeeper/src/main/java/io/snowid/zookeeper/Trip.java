package io.snowid.zookeeper;

import io.snowid.Durations;
import io.snowid.lease.RegistryUnavailableException;
import io.snowid.node.NodeIdUnavailableException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * The round trips of one coordinator call on one session handle, all within one time bound. Each
 * request is sent once (a retried write could apply twice); what the ensemble answered is returned
 * as it is, and what did not come back in time is {@link RegistryUnavailableException}.
 */
final class Trip {
  /** A multi's answer: its code and, per op, its result. */
  record Answer(Code code, List<OpResult> results) {
    boolean ok() {
      return code == Code.OK;
    }
  }

  private final ZooKeeper zk;
  private final long deadline;
  private final long boundMillis;
  private final String what;
  private final String where;
  private final AtomicLong listings;
  private boolean expiryAnswers;

  /**
   * @param listings counts the {@code getChildren} requests sent (scans), for measurements and
   *     tests
   */
  Trip(ZooKeeper zk, long boundMillis, String what, String where, AtomicLong listings) {
    this.zk = zk;
    this.listings = listings;
    this.boundMillis = boundMillis;
    this.deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(boundMillis);
    this.what = what;
    this.where = where;
  }

  /** A renewal's trip: an expired session is its answer (the lease is lost), not a failure. */
  Trip expiryAnswers() {
    expiryAnswers = true;
    return this;
  }

  long sessionId() {
    return zk.getSessionId();
  }

  /** Sends a multi (all writes: one transaction; all reads: read together) without waiting. */
  CompletableFuture<Answer> send(List<Op> ops) {
    CompletableFuture<Answer> f = new CompletableFuture<>();
    for (Op op : ops) {
      if (op.getType() == ZooDefs.OpCode.getChildren) {
        listings.incrementAndGet();
      }
    }
    try {
      zk.multi(
          ops, (rc, path, ctx, results) -> f.complete(new Answer(Code.get(rc), results)), null);
    } catch (RuntimeException e) {
      f.completeExceptionally(e);
    }
    return f;
  }

  /** Waits for an answer within the bound; a connection failure is thrown, other codes returned. */
  Answer await(CompletableFuture<Answer> f) {
    Answer a;
    try {
      a = f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new RegistryUnavailableException(
          "ZooKeeper at "
              + where
              + " did not answer "
              + what
              + " within "
              + Durations.format(Duration.ofMillis(boundMillis)));
    } catch (ExecutionException e) {
      throw new RegistryUnavailableException(
          what + " on ZooKeeper at " + where + " failed: " + e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NodeIdUnavailableException(what + " on " + where + " was interrupted");
    }
    if (a.code() == Code.SESSIONEXPIRED && expiryAnswers) {
      return a;
    }
    switch (a.code()) {
      case CONNECTIONLOSS, OPERATIONTIMEOUT, SESSIONMOVED, SESSIONEXPIRED, REQUESTTIMEOUT ->
          throw new RegistryUnavailableException(
              what + " on ZooKeeper at " + where + " failed: " + describe(a.code()));
      case NOAUTH, AUTHFAILED, INVALIDACL ->
          throw new NodeIdUnavailableException(
              what
                  + " on ZooKeeper at "
                  + where
                  + " was refused: "
                  + describe(a.code())
                  + " (check the user:password@ of the URI and the ACL of its chroot)");
      default -> {
        return a;
      }
    }
  }

  /** Sleeps {@code millis}, or less to stay within the bound. */
  void pause(long millis) {
    long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
    if (millis <= 0 || left <= 0) {
      return;
    }
    try {
      Thread.sleep(Math.min(millis, left));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NodeIdUnavailableException(what + " on " + where + " was interrupted");
    }
  }

  Answer multi(List<Op> ops) {
    return await(send(ops));
  }

  static String describe(Code code) {
    return code.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
  }
}
