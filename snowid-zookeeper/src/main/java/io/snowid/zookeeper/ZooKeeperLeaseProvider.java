package io.snowid.zookeeper;

import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseCoordinatorProvider;
import java.time.Duration;
import java.util.Set;

/**
 * Node leases on ZooKeeper, for fleets that span hosts: {@code
 * zookeeper://[user:password@]host[:port][,host[:port]]…[/chroot]} ({@code zk://} alike), with
 * snowid's lease options in the query: {@code zookeeper://127.0.0.1:2181/snowid?namespace=orders}.
 * A lease is an ephemeral node of the holder's session, so the ensemble judges its expiry; the
 * session timeout it asks is the lease's {@code ttl}, which the ensemble must grant (by default
 * tickTime × 2 to × 20, 4 s to 40 s). {@code user:password@} authenticates with ZooKeeper's digest
 * scheme, and the nodes are then readable and writable by that user only. Leases every node field
 * that is not set; lease time 10 s by default.
 */
public final class ZooKeeperLeaseProvider implements LeaseCoordinatorProvider {
  static final Duration DEFAULT_TTL = Duration.ofSeconds(10);

  /** For {@link java.util.ServiceLoader}. */
  public ZooKeeperLeaseProvider() {}

  @Override
  public boolean supports(String uri) {
    return ZooKeeperSettings.supports(uri);
  }

  @Override
  public Set<String> schemes() {
    return Set.of("zookeeper://", "zk://");
  }

  @Override
  public LeaseCoordinator open(String uri) {
    return ZooKeeperLeaseCoordinator.open(uri);
  }

  /**
   * 10 s, the session timeout asked of the ensemble: a holder issues on for up to 8 s after its
   * last renewal, so a leader election of a few seconds goes unnoticed; a killed holder's ids are
   * free again 10 s after it stopped.
   */
  @Override
  public Duration defaultTtl() {
    return DEFAULT_TTL;
  }
}
