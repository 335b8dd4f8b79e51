package io.snowid.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseTerms;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Latency of the Redis lease calls, one caller, against a Redis on 127.0.0.1 (default port 6379),
 * with extra URI options (e.g. {@code wait=1}): what BENCHMARKS.md, "Redis leases", records. Not a
 * test; run it with the module's test class path:
 *
 * <pre>
 * java -cp … io.snowid.redis.RedisLeaseLatency [PORT [OPTIONS [SAMPLES]]]    e.g. 6379 wait=1 20000
 * </pre>
 *
 * Each row: warm-up, then {@code samples} timed calls (System.nanoTime around the call); median,
 * p99, p99.9 and mean, and round trips per timed sample from the coordinator's own count. Uses a
 * prefix of its own and deletes it afterwards.
 */
public final class RedisLeaseLatency {
  private static final Duration TTL = Duration.ofSeconds(10);

  private RedisLeaseLatency() {}

  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 6379;
    String options = args.length > 1 ? "&" + args[1] : "";
    int samples = args.length > 2 ? Integer.parseInt(args[2]) : 20_000;
    String base = "redis://127.0.0.1:" + port;
    String uri = base + "?prefix=" + TestRedis.uniquePrefix() + options;
    TestRedis redis = TestRedis.running(port);
    redis.putInService(uri);
    System.out.printf(
        "%-44s %9s %9s %9s %9s %12s%n",
        "call (1 caller, " + samples + " samples)",
        "median µs",
        "p99 µs",
        "p99.9 µs",
        "mean µs",
        "round trips");
    try (RedisLeaseCoordinator c = RedisLeaseCoordinator.open(uri)) {
      pingBaseline(base, samples);

      Lease held = c.acquire(request(1024, "renewer"));
      Lease[] current = {held};
      row("renew", samples, () -> time(c, () -> current[0] = c.renew(current[0], terms())));

      row("acquire + release, 1,024 ids, none held", samples, acquireThenRelease(c, 1024, "free"));
      row("release (timed alone)", samples, releaseOnly(c));

      for (int i = 0; i < 1022; i++) {
        c.acquire(request(1024, "holder-" + i));
      }
      // 1,023 of 1,024 held (1,022 + the renewer's): each acquisition takes the last free id
      row("acquire, 1,024 ids, 1,023 held", samples, acquireTimedThenRelease(c, 1024, "newcomer"));
    } finally {
      redis.deletePrefix(uri);
    }
  }

  private static LeaseTerms terms() {
    long now = System.currentTimeMillis();
    return new LeaseTerms(TTL, now, now + TTL.toMillis());
  }

  private static AcquireRequest request(long size, String instance) {
    return new AcquireRequest("bench", size, instance, terms());
  }

  /** Round trips made inside timed calls. */
  private static long timedTrips;

  private static long time(RedisLeaseCoordinator c, Runnable call) {
    long trips = c.roundTrips();
    long t0 = System.nanoTime();
    call.run();
    long t = System.nanoTime() - t0;
    timedTrips += c.roundTrips() - trips;
    return t;
  }

  /** Times acquire + release together (one sample = two calls, two round trips). */
  private static LongSupplier acquireThenRelease(RedisLeaseCoordinator c, long size, String who) {
    return () ->
        time(
            c,
            () -> {
              Lease l = c.acquire(request(size, who));
              c.release(l, System.currentTimeMillis());
            });
  }

  /** Times the acquisition only; releases it untimed. */
  private static LongSupplier acquireTimedThenRelease(
      RedisLeaseCoordinator c, long size, String who) {
    return () -> {
      Lease[] l = new Lease[1];
      long t = time(c, () -> l[0] = c.acquire(request(size, who)));
      c.release(l[0], System.currentTimeMillis());
      return t;
    };
  }

  /** Times the release only; acquires untimed. */
  private static LongSupplier releaseOnly(RedisLeaseCoordinator c) {
    return () -> {
      Lease l = c.acquire(request(1024, "releaser"));
      return time(c, () -> c.release(l, System.currentTimeMillis()));
    };
  }

  private static void row(String name, int samples, LongSupplier sample) {
    for (int i = 0; i < Math.max(2_000, samples / 5); i++) {
      long unused = sample.getAsLong(); // warm-up
    }
    long trips = timedTrips;
    long[] ns = new long[samples];
    for (int i = 0; i < samples; i++) {
      ns[i] = sample.getAsLong();
    }
    double perSample = (double) (timedTrips - trips) / samples;
    print(name, ns, perSample);
  }

  /**
   * PING on a Lettuce connection of the same kind (async, awaited): the floor of one round trip.
   */
  private static void pingBaseline(String base, int samples) throws Exception {
    RedisClient client = RedisClient.create(base);
    try (StatefulRedisConnection<String, String> conn = client.connect()) {
      RedisAsyncCommands<String, String> redis = conn.async();
      for (int i = 0; i < Math.max(2_000, samples / 5); i++) {
        redis.ping().get(1, TimeUnit.SECONDS);
      }
      long[] ns = new long[samples];
      for (int i = 0; i < samples; i++) {
        long t0 = System.nanoTime();
        redis.ping().get(1, TimeUnit.SECONDS);
        ns[i] = System.nanoTime() - t0;
      }
      print("PING (floor: one round trip)", ns, 1);
    } finally {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }

  private static void print(String name, long[] ns, double roundTrips) {
    long[] sorted = ns.clone();
    Arrays.sort(sorted);
    System.out.printf(
        Locale.ROOT,
        "%-44s %9.0f %9.0f %9.0f %9.0f %12.2f%n",
        name,
        sorted[sorted.length / 2] / 1e3,
        sorted[(int) (sorted.length * 0.99)] / 1e3,
        sorted[(int) (sorted.length * 0.999)] / 1e3,
        Arrays.stream(ns).average().orElse(0) / 1e3,
        roundTrips);
  }
}
