package io.snowid.lease;

import io.snowid.node.NodeIdUnavailableException;

/**
 * The {@code file:} coordinator's refusal of an acquisition whose first ID would come later than
 * the request's {@link AcquireRequest#startWait() startWait} allows, made before it wrote the id's
 * record, which stays its last holder's (docs/design.md, "The {@code file:} backend"). The holder
 * reports it as it reports such a start granted, a {@link io.snowid.ClockMovedBackwardsException}.
 */
final class StartRefusedException extends NodeIdUnavailableException {
  private static final long serialVersionUID = 1L;

  private final long nodeId;
  private final long startAfterMillis;

  /**
   * @param nodeId the id the coordinator would have granted
   * @param startAfterMillis the ID time of the mark it may issue only after
   * @param nowMillis the holder's clock, as the coordinator judged it
   */
  StartRefusedException(long nodeId, long startAfterMillis, long nowMillis) {
    super(
        "node id "
            + nodeId
            + " may issue only after "
            + java.time.Instant.ofEpochMilli(startAfterMillis)
            + ", "
            + (startAfterMillis - nowMillis)
            + " ms past this clock: beyond startWait");
    this.nodeId = nodeId;
    this.startAfterMillis = startAfterMillis;
  }

  long nodeId() {
    return nodeId;
  }

  long startAfterMillis() {
    return startAfterMillis;
  }
}
