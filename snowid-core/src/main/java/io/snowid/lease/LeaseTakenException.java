package io.snowid.lease;

import io.snowid.SnowIdException;

/**
 * The lease of a node id is another holder's: a renewal found it no longer held by this holder, or
 * an operator's {@link LeaseCoordinator#releaseAbandoned} found its holder possibly alive.
 */
public class LeaseTakenException extends SnowIdException {
  private static final long serialVersionUID = 1L;

  private final String namespace;
  private final long nodeId;
  private final String detail;

  /**
   * @param namespace the namespace of the id
   * @param nodeId the id
   * @param detail what the registry says: who holds it, until when, or why it is lost
   */
  public LeaseTakenException(String namespace, long nodeId, String detail) {
    super("lease of node id " + nodeId + " in namespace " + namespace + " is lost: " + detail);
    this.namespace = namespace;
    this.nodeId = nodeId;
    this.detail = detail;
  }

  public String namespace() {
    return namespace;
  }

  public long nodeId() {
    return nodeId;
  }

  /** What the registry says, without the namespace and id. */
  public String detail() {
    return detail;
  }
}
