package io.snowid.node;

import io.snowid.TimeSource;

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

  /**
   * The registry's clock reads behind {@code leaseTime}, the time source the lease reads, by more
   * than the allowed skew, and the lease is fenced for it: a generator whose own time source is
   * that same one, and ran ahead of the wall clock (a forward step NTP took back), may put it back
   * on the wall clock now, issuing nothing until the lease binds its next grant. Called on the
   * lease's thread. Returns whether the time source went back; by default, never.
   */
  default boolean rejoinWallClock(TimeSource leaseTime) {
    return false;
  }
}
