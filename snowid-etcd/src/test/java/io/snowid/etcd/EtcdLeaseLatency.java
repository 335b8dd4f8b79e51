package io.snowid.etcd;

import io.etcd.jetcd.Client;
import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseTerms;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Latency of the etcd lease calls, one caller, against an etcd on 127.0.0.1 (default port 2379):
 * what BENCHMARKS.md, "etcd leases", records. Not a test; run it with the module's test class path:
 *
 * <pre>
 * java -cp … io.snowid.etcd.EtcdLeaseLatency [PORT [SAMPLES]]    e.g. 2379 2000
 * </pre>
 *
 * Each row: warm-up, then {@code samples} timed calls (System.nanoTime around the call); median,
 * p99, p99.9 and mean, and requests per timed sample from the coordinator's own count (requests
 * sent together count each). Uses a prefix of its own and deletes it afterwards.
 */
public final class EtcdLeaseLatency {
  private static final Duration TTL = Duration.ofSeconds(10);

  private EtcdLeaseLatency() {}

  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 2379;
    int samples = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
    String prefix = TestEtcd.uniquePrefix();
    String uri = "etcd://127.0.0.1:" + port + "?prefix=" + prefix;
    TestEtcd etcd = TestEtcd.shared();
    etcd.putInService(prefix);
    System.out.printf(
        "%-44s %9s %9s %9s %9s %9s%n",
        "call (1 caller, " + samples + " samples)",
        "median µs",
        "p99 µs",
        "p99.9 µs",
        "mean µs",
        "requests");
    try (EtcdLeaseCoordinator c = EtcdLeaseCoordinator.open(uri)) {
      floor(etcd, samples);

      Lease held = c.acquire(request(1024, "renewer"));
      Lease[] current = {held};
      row("renew", samples, () -> time(c, () -> current[0] = c.renew(current[0], terms())));

      row("acquire + release, 1,024 ids, 1 held", samples, acquireThenRelease(c, 1024, "free"));
      row("release (timed alone)", samples, releaseOnly(c));

      for (int i = 0; i < 1022; i++) {
        c.acquire(request(1024, "holder-" + i));
      }
      // 1,023 of 1,024 held (1,022 + the renewer's): each acquisition takes the last free id
      row("acquire, 1,024 ids, 1,023 held", samples, acquireTimedThenRelease(c, 1024, "newcomer"));
    } finally {
      etcd.deletePrefix(prefix);
    }
  }

  private static LeaseTerms terms() {
    long now = System.currentTimeMillis();
    return new LeaseTerms(TTL, now, now + TTL.toMillis());
  }

  private static AcquireRequest request(long size, String instance) {
    return new AcquireRequest("bench", size, instance, terms());
  }

  /** Requests sent inside timed calls. */
  private static long timedCalls;

  private static long time(EtcdLeaseCoordinator c, Runnable call) {
    long calls = c.calls();
    long t0 = System.nanoTime();
    call.run();
    long t = System.nanoTime() - t0;
    timedCalls += c.calls() - calls;
    return t;
  }

  private static LongSupplier acquireThenRelease(EtcdLeaseCoordinator c, long size, String who) {
    return () ->
        time(
            c,
            () -> {
              Lease l = c.acquire(request(size, who));
              c.release(l, System.currentTimeMillis());
            });
  }

  private static LongSupplier acquireTimedThenRelease(
      EtcdLeaseCoordinator c, long size, String who) {
    return () -> {
      Lease[] l = new Lease[1];
      long t = time(c, () -> l[0] = c.acquire(request(size, who)));
      c.release(l[0], System.currentTimeMillis());
      return t;
    };
  }

  private static LongSupplier releaseOnly(EtcdLeaseCoordinator c) {
    return () -> {
      Lease l = c.acquire(request(1024, "releaser"));
      return time(c, () -> c.release(l, System.currentTimeMillis()));
    };
  }

  private static void row(String name, int samples, LongSupplier sample) {
    for (int i = 0; i < Math.max(200, samples / 5); i++) {
      long unused = sample.getAsLong(); // warm-up
    }
    long calls = timedCalls;
    long[] ns = new long[samples];
    for (int i = 0; i < samples; i++) {
      ns[i] = sample.getAsLong();
    }
    print(name, ns, (double) (timedCalls - calls) / samples);
  }

  /** A linearizable get and a put on a jetcd client of the same kind: one round trip each. */
  private static void floor(TestEtcd etcd, int samples) throws Exception {
    try (Client client = etcd.client()) {
      for (String what : new String[] {"get (floor: one read)", "put (floor: one write)"}) {
        long[] ns = new long[samples];
        for (int i = -Math.max(200, samples / 5); i < samples; i++) {
          long t0 = System.nanoTime();
          if (what.startsWith("get")) {
            client.getKVClient().get(TestEtcd.bytes("latency-probe")).get(5, TimeUnit.SECONDS);
          } else {
            client
                .getKVClient()
                .put(TestEtcd.bytes("latency-probe"), TestEtcd.bytes("x"))
                .get(5, TimeUnit.SECONDS);
          }
          if (i >= 0) {
            ns[i] = System.nanoTime() - t0;
          }
        }
        print(what, ns, 1);
      }
      client.getKVClient().delete(TestEtcd.bytes("latency-probe")).get(5, TimeUnit.SECONDS);
    }
  }

  private static void print(String name, long[] ns, double requests) {
    long[] sorted = ns.clone();
    Arrays.sort(sorted);
    System.out.printf(
        Locale.ROOT,
        "%-44s %9.0f %9.0f %9.0f %9.0f %9.2f%n",
        name,
        sorted[sorted.length / 2] / 1e3,
        sorted[(int) (sorted.length * 0.99)] / 1e3,
        sorted[(int) (sorted.length * 0.999)] / 1e3,
        Arrays.stream(ns).average().orElse(0) / 1e3,
        requests);
  }
}
