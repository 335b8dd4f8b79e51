package io.snowid.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.snowid.testkit.LeaseLatency;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Latency of the Redis lease calls, one caller, against a Redis on 127.0.0.1 (default port 6379),
 * with extra URI options (e.g. {@code wait=1}): what BENCHMARKS.md, "Redis leases", records. Not a
 * test; run it with the module's test class path:
 *
 * <pre>
 * java -cp … io.snowid.redis.RedisLeaseLatency [PORT [OPTIONS [SAMPLES]]]    e.g. 6379 wait=1 20000
 * </pre>
 *
 * The rows and how they are timed: {@link LeaseLatency}.
 */
public final class RedisLeaseLatency {
  private RedisLeaseLatency() {}

  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 6379;
    String options = args.length > 1 ? "&" + args[1] : "";
    int samples = args.length > 2 ? Integer.parseInt(args[2]) : 20_000;
    String base = "redis://127.0.0.1:" + port;
    String uri = base + "?prefix=" + TestRedis.uniquePrefix() + options;
    TestRedis redis = TestRedis.running(port);
    redis.putInService(uri);
    RedisClient client = RedisClient.create(base);
    try (RedisLeaseCoordinator c = RedisLeaseCoordinator.open(uri);
        StatefulRedisConnection<String, String> conn = client.connect()) {
      LeaseLatency latency = new LeaseLatency(c, c::roundTrips, "round trips", samples);
      // PING on a Lettuce connection of the same kind (async, awaited)
      latency.floor(
          "PING (floor: one round trip)", () -> conn.async().ping().get(1, TimeUnit.SECONDS));
      latency.standardRows();
    } finally {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
      redis.deletePrefix(uri);
    }
  }
}
