package io.snowid.lease;

import io.snowid.node.NodeIdUnavailableException;

/**
 * Every node id of a namespace is held by a live holder: the coordinator has none to grant. A
 * coordinator throws it from {@link LeaseCoordinator#acquire}; a lease whose node values are found
 * by trying several namespaces in turn (a {@code file:} lease on a host without an IPv4 address)
 * then tries the next one.
 */
public class NodeIdsExhaustedException extends NodeIdUnavailableException {
  private static final long serialVersionUID = 1L;

  private final String namespace;
  private final long size;

  /**
   * @param namespace the namespace key
   * @param size how many node ids it has
   * @param where the coordinator, for the message (e.g. {@code "in file:/tmp/snowid-leases"})
   */
  public NodeIdsExhaustedException(String namespace, long size, String where) {
    super("all " + size + " node ids of namespace " + namespace + " " + where + " are held");
    this.namespace = namespace;
    this.size = size;
  }

  /** The namespace key. */
  public String namespace() {
    return namespace;
  }

  /** How many node ids it has, all held. */
  public long size() {
    return size;
  }
}
