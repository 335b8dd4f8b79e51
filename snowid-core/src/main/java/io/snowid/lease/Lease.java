package io.snowid.lease;

/**
 * A coordinator's grant of one node id in a namespace, as the coordinator recorded it.
 *
 * @param namespace the namespace the id belongs to
 * @param nodeId the id, in {@code [0, size)} of the namespace
 * @param instance the holder's identity (stable across restarts for stable reuse)
 * @param token changes with every acquisition: a renewal or release must present it
 * @param coordinatorNowMillis the coordinator's clock when it answered (Unix ms)
 * @param expiresAtMillis when the coordinator considers the lease expired, by its clock
 * @param highWaterMillis the latest ID time any previous holder of the id reported it might issue
 *     (Unix ms, ID time); {@link Long#MIN_VALUE} if none
 * @param startReason why the new holder starts only after {@code highWaterMillis} when that lies
 *     ahead for another reason than a previous holder's own report (a new namespace, a registry
 *     that lost its state, a holder that did not release): the words the holder logs when its first
 *     ID has to wait; empty when there is nothing to add
 */
public record Lease(
    String namespace,
    long nodeId,
    String instance,
    String token,
    long coordinatorNowMillis,
    long expiresAtMillis,
    long highWaterMillis,
    String startReason) {
  public Lease {
    startReason = startReason == null ? "" : startReason;
  }

  /** A lease whose start needs no words beyond its high-water mark. */
  public Lease(
      String namespace,
      long nodeId,
      String instance,
      String token,
      long coordinatorNowMillis,
      long expiresAtMillis,
      long highWaterMillis) {
    this(
        namespace,
        nodeId,
        instance,
        token,
        coordinatorNowMillis,
        expiresAtMillis,
        highWaterMillis,
        "");
  }
}
