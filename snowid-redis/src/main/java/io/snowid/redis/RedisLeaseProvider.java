package io.snowid.redis;

import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseCoordinatorProvider;
import java.time.Duration;

/**
 * Node leases on Redis, for fleets that span hosts: {@code
 * redis://[user:password@]host[:port][/db]}, {@code rediss://…} (TLS) or {@code
 * redis-sentinel://host[:port],…?sentinelMasterId=NAME}, with snowid's lease options in the same
 * query: {@code redis://127.0.0.1:6379?namespace=orders&ttl=3s}. Options of its own: {@code
 * prefix=NAME} (the first part of the keys' hash tag, default {@code snowid}) and {@code wait=N} (a
 * grant or renewal counts only once N replicas acknowledged it). Leases every node field that is
 * not set; lease time 10 s by default.
 */
public final class RedisLeaseProvider implements LeaseCoordinatorProvider {
  /** For {@link java.util.ServiceLoader}. */
  public RedisLeaseProvider() {}

  @Override
  public boolean supports(String uri) {
    return RedisSettings.supports(uri);
  }

  @Override
  public LeaseCoordinator open(String uri) {
    return RedisLeaseCoordinator.open(uri);
  }

  /**
   * 10 s: a holder issues on for up to 8 s after its last renewal (the lease time less
   * LeaseHolder's margin), so a Redis outage of a couple of seconds goes unnoticed; the first
   * holders after Redis lost its data wait 11 s. Longer rides out longer failovers at the cost of a
   * longer wait then; renewals cost one small script every third of it.
   */
  @Override
  public Duration defaultTtl() {
    return Duration.ofSeconds(10);
  }
}
