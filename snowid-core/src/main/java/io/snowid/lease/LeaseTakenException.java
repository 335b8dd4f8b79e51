package io.snowid.lease;

import io.snowid.SnowIdException;

/** A renewal found that the lease is no longer held by this holder. */
public class LeaseTakenException extends SnowIdException {
  private static final long serialVersionUID = 1L;

  public LeaseTakenException(String namespace, long nodeId, String detail) {
    super("lease of node id " + nodeId + " in namespace " + namespace + " is lost: " + detail);
  }
}
