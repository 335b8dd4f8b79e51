package io.snowid.etcd;

import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseCoordinatorProvider;
import java.time.Duration;
import java.util.Set;

/**
 * Node leases on etcd, for fleets that span hosts: {@code
 * etcd://[user:password@]host:port[,host:port…]}, with snowid's lease options in the same query:
 * {@code etcd://127.0.0.1:2379?namespace=orders&ttl=6s}. Option of its own: {@code prefix=NAME}
 * (the first part of every key, default {@code snowid}). Leases every node field that is not set;
 * lease time 10 s by default, granted by etcd in whole seconds (docs/design.md, "The etcd://
 * backend").
 */
public final class EtcdLeaseProvider implements LeaseCoordinatorProvider {
  /** For {@link java.util.ServiceLoader}. */
  public EtcdLeaseProvider() {}

  @Override
  public boolean supports(String uri) {
    return EtcdSettings.supports(uri);
  }

  @Override
  public Set<String> schemes() {
    return Set.of("etcd://");
  }

  @Override
  public LeaseCoordinator open(String uri) {
    return EtcdLeaseCoordinator.open(uri);
  }

  /** 10 s, as Redis: a holder issues for up to 8 s after its last renewal. */
  @Override
  public Duration defaultTtl() {
    return Duration.ofSeconds(10);
  }
}
