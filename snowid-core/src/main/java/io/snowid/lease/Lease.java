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
 */
public record Lease(
    String namespace,
    long nodeId,
    String instance,
    String token,
    long coordinatorNowMillis,
    long expiresAtMillis,
    long highWaterMillis) {}
