package io.snowid.etcd;

/**
 * The history of etcd one client knows: the highest revision and the cluster id of its answers, and
 * when the newest arrived. etcd answers linearizably, so an answer to a request sent after one at
 * revision {@code R} is at {@code R} or later; one below it, or from another cluster, is a
 * rollback, and the client goes on from the new history (docs/design.md, "The etcd:// backend").
 */
final class EtcdHistory {
  /**
   * What a request knew when it was sent: the revision its answer must reach, and how many
   * rollbacks this client had found by then.
   */
  record Sent(long revision, long rollbacks) {}

  /**
   * A rollback: why, and whether the revision went back, which proves the history answering now
   * branched off before an answer this client had received by {@code answeredNanos} ({@link
   * System#nanoTime()}). A new cluster id proves nothing of when: another cluster may have served
   * beside the old one.
   */
  record Loss(String why, boolean dated, long answeredNanos) {
    /**
     * The holder's clock when that answer arrived, from a {@code reading} of it; {@link
     * Long#MAX_VALUE} if the rollback tells no such time.
     */
    long knownAt(Reading reading) {
      return dated
          ? reading.millis() - (reading.nanos() - answeredNanos) / 1_000_000 + 1
          : Long.MAX_VALUE;
    }
  }

  /** A reading of the holder's clock ({@code millis}) taken at {@code nanos}. */
  record Reading(long millis, long nanos) {
    /**
     * Now: the later of the holder's clock when it sent the call, {@code holderNow}, and the system
     * clock (the holder's, unless it runs another): a holder paused between reading its clock and
     * calling would otherwise date a rollback early by the pause.
     */
    static Reading now(long holderNow) {
      long nanos = System.nanoTime();
      return new Reading(Math.max(holderNow, System.currentTimeMillis()), nanos);
    }
  }

  private long revision; // 0 before the first answer
  private long clusterId; // 0 before the first answer
  private long answeredNanos;
  private long rollbacks;
  private Loss found; // the last rollback found
  private Loss unrecorded;

  synchronized Sent sent() {
    return new Sent(revision, rollbacks);
  }

  /**
   * Judges an answer at {@code revision} of cluster {@code cluster} to a request {@code sent},
   * arrived at {@code atNanos}: the rollback it shows, which stays unrecorded until {@link
   * #recorded}, or null. An answer to a request sent before the last rollback was found moves
   * nothing (it may come from either history); one that shows a rollback shows that one, as dated
   * when it was found.
   */
  synchronized Loss answered(Sent sent, long cluster, long revision, long atNanos) {
    if (sent.rollbacks() != rollbacks) {
      return revision < sent.revision() || cluster != clusterId ? found : null;
    }
    Loss loss = null;
    if (clusterId != 0 && clusterId != cluster) {
      loss =
          new Loss(
              "etcd answered with cluster id "
                  + Long.toHexString(cluster)
                  + " after "
                  + Long.toHexString(clusterId)
                  + " (restored from a snapshot, or another cluster)",
              false,
              answeredNanos);
    } else if (revision < sent.revision()) {
      loss =
          new Loss(
              "etcd's revision went back from "
                  + sent.revision()
                  + " to "
                  + revision
                  + " (restored from an older snapshot or data directory)",
              true,
              answeredNanos);
    }
    if (loss == null) {
      clusterId = cluster;
      this.revision = Math.max(this.revision, revision);
      answeredNanos = Math.max(answeredNanos, atNanos);
      return null;
    }
    rollbacks++;
    found = loss;
    clusterId = cluster;
    this.revision = revision;
    answeredNanos = atNanos;
    unrecorded = loss;
    return loss;
  }

  /** The cluster id of the answers so far (0 before the first). */
  synchronized long clusterId() {
    return clusterId;
  }

  /** A rollback found and not recorded yet (lostAt), or null. */
  synchronized Loss unrecorded() {
    return unrecorded;
  }

  /** {@code loss} is recorded in etcd now, or taken on from a record of it. */
  synchronized void recorded(Loss loss) {
    if (unrecorded == loss) {
      unrecorded = null;
    }
  }
}
