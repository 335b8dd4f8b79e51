package io.snowid.lease;

/**
 * One node id of a namespace as its coordinator records it: what {@link LeaseCoordinator#list}
 * reports, for operators.
 *
 * @param namespace the namespace the id belongs to
 * @param nodeId the id, in {@code [0, size)} of the namespace
 * @param instance the identity of the holder that holds, held or last released it
 * @param host the holder's host name; {@code ""} if the coordinator does not record it
 * @param state whether a holder may be issuing under the id now
 * @param expiresAtMillis when the lease ends unless renewed (Unix ms, the coordinator's clock);
 *     {@link Long#MIN_VALUE} once released
 * @param highWaterMillis the latest ID time any holder of the id may have issued (Unix ms); the
 *     next holder starts strictly after it; {@link Long#MIN_VALUE} if none
 */
public record LeaseInfo(
    String namespace,
    long nodeId,
    String instance,
    String host,
    LeaseInfo.State state,
    long expiresAtMillis,
    long highWaterMillis) {

  /** Whether a holder may still be issuing IDs under the id. */
  public enum State {
    /** A live holder's lease: another holder cannot take the id. */
    HELD,
    /**
     * Not released, but no longer held: the lease ran out without a renewal, or (a coordinator that
     * can tell, such as {@code file:}) its holder is provably gone. The next holder may take the
     * id; {@link LeaseCoordinator#releaseAbandoned} marks it released.
     */
    EXPIRED,
    /** Released by its holder (or by an operator after the holder was gone). */
    RELEASED
  }
}
