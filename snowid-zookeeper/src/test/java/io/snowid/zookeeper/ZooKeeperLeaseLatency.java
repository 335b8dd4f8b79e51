package io.snowid.zookeeper;

import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseTerms;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.LongSupplier;
import org.apache.zookeeper.ZooKeeper;

/**
 * Latency of the ZooKeeper lease calls, one caller, against a ZooKeeper on 127.0.0.1 (default port
 * 2181): what BENCHMARKS.md, "ZooKeeper leases", records. Not a test; run it with the module's test
 * class path:
 *
 * <pre>
 * java -cp … io.snowid.zookeeper.ZooKeeperLeaseLatency [PORT [SAMPLES]]    e.g. 2181 5000
 * </pre>
 *
 * Each row: warm-up, then {@code samples} timed calls (System.nanoTime around the call); median,
 * p99, p99.9 and mean, and requests per timed sample from the coordinator's own count (a pipelined
 * pair counts once). Uses a chroot of its own and deletes it afterwards.
 */
public final class ZooKeeperLeaseLatency {
  private static final Duration TTL = Duration.ofSeconds(10);

  private ZooKeeperLeaseLatency() {}

  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 2181;
    int samples = args.length > 1 ? Integer.parseInt(args[1]) : 5_000;
    String connect = "127.0.0.1:" + port;
    String root = TestZooKeeper.uniqueRoot();
    TestZooKeeper.putInService(connect, root);
    System.out.printf(
        "%-44s %9s %9s %9s %9s %12s%n",
        "call (1 caller, " + samples + " samples)",
        "median µs",
        "p99 µs",
        "p99.9 µs",
        "mean µs",
        "round trips");
    try (ZooKeeperLeaseCoordinator c =
        ZooKeeperLeaseCoordinator.open("zookeeper://" + connect + root)) {
      existsBaseline(connect, samples);

      Lease[] current = {c.acquire(request(1024, "renewer"))};
      row("renew", samples, () -> time(c, () -> current[0] = c.renew(current[0], terms())));
      row("acquire + release, 1,024 ids, none held", samples, acquireThenRelease(c, "free"));
      row("release (timed alone)", samples, releaseOnly(c));
      for (int i = 0; i < 1022; i++) {
        c.acquire(request(1024, "holder-" + i));
      }
      row("acquire, 1,024 ids, 1,023 held", samples, acquireTimedThenRelease(c, "newcomer"));
    } finally {
      TestZooKeeper.delete(connect, root);
    }
  }

  private static LeaseTerms terms() {
    long now = System.currentTimeMillis();
    return new LeaseTerms(TTL, now, now + TTL.toMillis());
  }

  private static AcquireRequest request(long size, String instance) {
    return new AcquireRequest("bench", size, instance, terms());
  }

  /** Requests made inside timed calls. */
  private static long timedTrips;

  private static long time(ZooKeeperLeaseCoordinator c, Runnable call) {
    long trips = c.roundTrips();
    long t0 = System.nanoTime();
    call.run();
    long t = System.nanoTime() - t0;
    timedTrips += c.roundTrips() - trips;
    return t;
  }

  private static LongSupplier acquireThenRelease(ZooKeeperLeaseCoordinator c, String who) {
    return () ->
        time(
            c,
            () -> {
              Lease l = c.acquire(request(1024, who));
              c.release(l, System.currentTimeMillis());
            });
  }

  private static LongSupplier acquireTimedThenRelease(ZooKeeperLeaseCoordinator c, String who) {
    return () -> {
      Lease[] l = new Lease[1];
      long t = time(c, () -> l[0] = c.acquire(request(1024, who)));
      c.release(l[0], System.currentTimeMillis());
      return t;
    };
  }

  private static LongSupplier releaseOnly(ZooKeeperLeaseCoordinator c) {
    return () -> {
      Lease l = c.acquire(request(1024, "releaser"));
      return time(c, () -> c.release(l, System.currentTimeMillis()));
    };
  }

  private static void row(String name, int samples, LongSupplier sample) {
    for (int i = 0; i < Math.max(500, samples / 5); i++) {
      long unused = sample.getAsLong(); // warm-up
    }
    long trips = timedTrips;
    long[] ns = new long[samples];
    for (int i = 0; i < samples; i++) {
      ns[i] = sample.getAsLong();
    }
    print(name, ns, (double) (timedTrips - trips) / samples);
  }

  /** One exists() of a plain client: the floor of one read round trip. */
  private static void existsBaseline(String connect, int samples) throws Exception {
    try (ZooKeeper zk = TestZooKeeper.client(connect)) {
      for (int i = 0; i < Math.max(500, samples / 5); i++) {
        zk.exists("/", false);
      }
      long[] ns = new long[samples];
      for (int i = 0; i < samples; i++) {
        long t0 = System.nanoTime();
        zk.exists("/", false);
        ns[i] = System.nanoTime() - t0;
      }
      print("exists (floor: one read round trip)", ns, 1);
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
