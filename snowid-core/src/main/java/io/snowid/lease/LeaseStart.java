package io.snowid.lease;

import io.snowid.Durations;
import io.snowid.node.NodeIdUnavailableException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * After what ID time a newcomer on the {@code file:} backend may issue under the id it takes: after
 * the id's last holder here and every earlier holder of the same node values on another lease
 * directory of this host (as their claim files recorded); and, when it must wait out a holder that
 * may be alive, one lease time (the longest any holder of the namespace may still use) and every
 * high-water mark and recorded loss of the namespace (docs/design.md, "The {@code file:} backend").
 */
final class LeaseStart {
  /** How far past a newcomer's wait a high-water mark of this host may lie: a slow disk's write. */
  private static final long FUTURE_SLACK_MILLIS = 1_000;

  private LeaseStart() {}

  /**
   * When a newcomer may start, and why it waits when it must wait out a holder that may be alive.
   *
   * @param afterMillis the ID time after which it may issue
   * @param marksMillis the part of it that fixed marks set: the id's own (its last holder's here
   *     and its host-wide claim's) and a recorded loss; not one lease time from the newcomer's own
   *     clock, nor the namespace's marks, which live holders move on at every renewal
   * @param reason empty when it only follows the id's own records
   */
  record Start(long afterMillis, long marksMillis, String reason) {}

  /**
   * The ID time after which the newcomer may issue under candidate {@code c}.
   *
   * @param dir the lease directory
   * @param now the newcomer's clock ({@link LeaseTerms#localNowMillis})
   * @throws NodeIdUnavailableException if another user's file records a high-water mark beyond any
   *     lease time, naming it
   */
  static Start startAfter(
      Path dir, LeaseCandidate c, AcquireRequest request, NamespaceView view, long now) {
    LeaseTerms terms = request.terms();
    // After the id's last holder here, and after every earlier holder of the same node values on
    // another lease directory of this host, as their claim files recorded.
    HostClaim claim = c.claim();
    view.ttlMillis = Math.max(view.ttlMillis, claim.ttlMillis());
    long previous =
        Math.max(
            c.previous() == null ? Long.MIN_VALUE : c.previous().highWater(), claim.highWater());
    refuseForeignFuture(
        dir,
        request,
        now,
        Math.max(terms.ttl().toMillis(), view.ttlMillis),
        c,
        claim.highWater(),
        claim.highWaterFile(),
        claim.highWaterOwner());
    if (!c.mustWait()) {
      return new Start(previous, previous, "");
    }
    // After whoever may hold the id: one lease time (the longest any record of the namespace
    // names), and after every high-water mark of the namespace, since a holder whose record was
    // lost may run on a clock as far ahead as any other holder's. The marks of the lease
    // directory are read now, with the id's file locked at its path: a holder that renews
    // after this read sees that its file was replaced and stops.
    NamespaceMarks.Seen marks =
        NamespaceMarks.readAll(dir, request.namespace(), System.currentTimeMillis());
    view.ttlMillis = Math.max(view.ttlMillis, marks.ttlMillis());
    view.sawHighWater(marks.highWater(), marks.highWaterFile(), marks.highWaterOwner());
    long wait = Math.max(terms.ttl().toMillis(), view.ttlMillis);
    if (view.marksLost) {
      // the marks may be older than some holder's: wait what the limits allow any holder
      wait = Math.max(wait, request.limits().maxTtl().toMillis());
    }

    refuseForeignFuture(
        dir, request, now, wait, c, view.highWater, view.highWaterFile, view.highWaterOwner);
    long marked = Math.max(previous, marks.lostUntil());
    long startAfter = Math.max(Math.max(marked, view.highWater), saturatedAdd(now, wait));
    return new Start(startAfter, marked, why(c, wait, view.marksLost));
  }

  private static String why(LeaseCandidate c, long waitMillis, boolean marksLost) {
    String id = "node id " + c.id();
    String record =
        c.previous() == null
            ? id + " has no readable lease record here (a new or damaged file)"
            : id
                + "'s record does not prove that its last holder (pid "
                + c.previous().pid()
                + " on "
                + c.previous().host()
                + ") stopped";
    return record
        + ", so it waits out "
        + (marksLost
            ? "the longest lease any holder may have (maxTtl "
                + LeaseLimits.text(java.time.Duration.ofMillis(waitMillis))
                + ": the directory's records are older than any live lease)"
            : "one lease time (" + LeaseLimits.text(java.time.Duration.ofMillis(waitMillis)) + ")")
        + " and the namespace's high-water marks (docs/node-ids.md#why-the-first-id-may-wait)";
  }

  static long saturatedAdd(long a, long b) {
    long r = a + b;
    return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
  }

  /*
   * A mark beyond the newcomer's now plus its wait was written on a clock that ran ahead or forged:
   * another user's file (lease file, marks or claim) gets a refusal naming it, its owner and the
   * fix, rather than one blaming the node id (docs/design.md, "Host-wide claims", high-water marks).
   */
  private static void refuseForeignFuture(
      Path dir,
      AcquireRequest request,
      long now,
      long wait,
      LeaseCandidate c,
      long highWater,
      Path highWaterFile,
      int highWaterOwner) {
    if (highWaterFile == null
        || highWaterOwner == LeaseDirectory.CurrentUser.uid()
        || highWater <= saturatedAdd(saturatedAdd(now, wait), FUTURE_SLACK_MILLIS)) {
      return;
    }
    String owner = highWaterOwner == 0 ? "root" : "uid " + Integer.toUnsignedString(highWaterOwner);
    throw new NodeIdUnavailableException(
        "node id "
            + c.id()
            + " of namespace "
            + request.namespace()
            + " in "
            + "file:"
            + dir
            + " cannot start: "
            + highWaterFile
            + " (owned by "
            + owner
            + ") records a high-water mark of "
            + java.time.Instant.ofEpochMilli(highWater)
            + ", "
            + Durations.format(Duration.ofMillis(highWater - now))
            + " after this clock, beyond any lease time recorded ("
            + Durations.format(Duration.ofMillis(wait))
            + "): a process of "
            + owner
            + " ran with its clock ahead, or the file was forged; if no process of "
            + owner
            + " runs snowid with its clock ahead, remove "
            + highWaterFile
            + " as root or as its owner");
  }
}
