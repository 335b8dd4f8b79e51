package io.snowid.node;

import io.snowid.SnowIdException;

/** No node id source gave a value for a node field, or a coordinator could not grant one. */
public class NodeIdUnavailableException extends SnowIdException {
  private static final long serialVersionUID = 1L;

  public NodeIdUnavailableException(String message) {
    super(message);
  }
}
