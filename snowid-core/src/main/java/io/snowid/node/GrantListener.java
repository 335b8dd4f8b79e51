package io.snowid.node;

/**
 * The generator's side of a {@link NodeLease}: it receives the lease's grants and tells the lease
 * how far it has issued.
 */
public interface GrantListener {
  /**
   * Receives a grant: the current one when attached, then every renewal and new acquisition, on the
   * lease's thread. Must be quick and must not block.
   */
  void onGrant(NodeGrant grant);

  /**
   * The latest ID time (Unix ms) the generator issued or reserved: each renewal and the release
   * record it as the node's high-water mark. {@link Long#MIN_VALUE} if nothing was issued.
   */
  long lastIssuedMillis();
}
