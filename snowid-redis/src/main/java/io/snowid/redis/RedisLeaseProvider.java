package io.snowid.redis;

import io.lettuce.core.RedisClient;
import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseCoordinatorProvider;
import java.time.Duration;
import java.util.Set;

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

  /**
   * A coordinator on the Redis that an application's own Lettuce client connects to, for an
   * application that has one already (Spring Data Redis's {@code
   * LettuceConnectionFactory.getNativeClient()}: the snowid starter's {@code
   * snowid.node=redis-connection}). It opens one connection of its own on the client and its {@link
   * LeaseCoordinator#close()} closes that connection only: the client, its resources and its
   * options stay the caller's. Keys, scripts and guarantees are those of a {@code redis://}
   * coordinator; lease them with {@link io.snowid.lease.LeaseCoordinators#lease(LeaseCoordinator,
   * io.snowid.lease.LeaseOptions, io.snowid.Layout, java.util.Map, io.snowid.TimeSource)}, and use
   * {@link #defaultTtl()} as the default lease time.
   *
   * @param client a client made with a {@code RedisURI} (a single server or Sentinel; a cluster
   *     client is a different type)
   * @param options the coordinator's own options as a query: {@code prefix=NAME} (default {@code
   *     snowid}) and {@code wait=N} (0..16), both optional; {@code ""} for neither
   * @throws io.snowid.InvalidSettingException for a null client, or an unknown or malformed option
   * @throws io.snowid.node.NodeIdUnavailableException if Redis cannot be reached
   */
  public static LeaseCoordinator open(RedisClient client, String options) {
    return RedisLeaseCoordinator.open(client, options);
  }

  @Override
  public boolean supports(String uri) {
    return RedisSettings.supports(uri);
  }

  @Override
  public Set<String> schemes() {
    return Set.of("redis://", "rediss://", "redis-sentinel://");
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
