package io.snowid.testkit;

import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseTerms;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;

/**
 * The latency of a coordinator's lease calls, one caller: what BENCHMARKS.md records per backend
 * (each backend's {@code …LeaseLatency} main sets up its server and calls this). Each row: a
 * warm-up, then {@code samples} timed calls ({@code System.nanoTime} around the call); median, p99,
 * p99.9 and mean in µs, and the requests per timed sample from the coordinator's own count. Not a
 * test: performance lives in benchmarks, never in an assertion.
 */
public final class LeaseLatency {
  private static final Duration TTL = Duration.ofSeconds(10);

  private final LeaseCoordinator coordinator;
  private final LongSupplier requests;
  private final int samples;
  private long timedRequests;

  /**
   * Prints the header.
   *
   * @param requests the coordinator's count of requests sent so far
   * @param requestsColumn what the count is called: {@code round trips}, {@code statements}, …
   */
  public LeaseLatency(
      LeaseCoordinator coordinator, LongSupplier requests, String requestsColumn, int samples) {
    this.coordinator = coordinator;
    this.requests = requests;
    this.samples = samples;
    System.out.printf(
        "%-46s %9s %9s %9s %9s %11s%n",
        "call (1 caller, " + samples + " samples)",
        "median µs",
        "p99 µs",
        "p99.9 µs",
        "mean µs",
        requestsColumn);
  }

  /** One request of a plain client of the registry, the floor of a call (one request a sample). */
  public void floor(String name, Callable<?> call) throws Exception {
    long[] ns = new long[samples];
    for (int i = -warmUps(samples); i < samples; i++) {
      long t0 = System.nanoTime();
      call.call();
      if (i >= 0) {
        ns[i] = System.nanoTime() - t0;
      }
    }
    print(name, ns, 1);
  }

  /**
   * The rows every backend reports, in a namespace {@code bench} of 1,024 ids: renew, acquire and
   * release (one id held, the renewer's), release alone, and an acquisition that finds 1,023 of the
   * 1,024 held (it takes the last free id).
   */
  public void standardRows() {
    Lease[] current = {coordinator.acquire(request("renewer"))};
    row("renew", samples, () -> time(() -> current[0] = coordinator.renew(current[0], terms())));
    row(
        "acquire + release, 1,024 ids, 1 held",
        samples,
        () ->
            time(
                () -> {
                  Lease l = coordinator.acquire(request("free"));
                  coordinator.release(l, System.currentTimeMillis());
                }));
    row(
        "release (timed alone)",
        samples,
        () -> {
          Lease l = coordinator.acquire(request("releaser"));
          return time(() -> coordinator.release(l, System.currentTimeMillis()));
        });
    for (int i = 0; i < 1022; i++) {
      coordinator.acquire(request("holder-" + i));
    }
    row(
        "acquire, 1,024 ids, 1,023 held",
        samples,
        () -> {
          Lease[] l = new Lease[1];
          long t = time(() -> l[0] = coordinator.acquire(request("newcomer")));
          coordinator.release(l[0], System.currentTimeMillis());
          return t;
        });
  }

  /** A row of its own: a warm-up, then {@code count} samples (each timed with {@link #time}). */
  public void row(String name, int count, LongSupplier sample) {
    for (int i = 0; i < warmUps(count); i++) {
      long unused = sample.getAsLong(); // warm-up
    }
    long before = timedRequests;
    long[] ns = new long[count];
    for (int i = 0; i < count; i++) {
      ns[i] = sample.getAsLong();
    }
    print(name, ns, (double) (timedRequests - before) / count);
  }

  /** The nanoseconds of one call, counting the requests it sent. */
  public long time(Runnable call) {
    long before = requests.getAsLong();
    long t0 = System.nanoTime();
    call.run();
    long t = System.nanoTime() - t0;
    timedRequests += requests.getAsLong() - before;
    return t;
  }

  /** A fifth of the samples, 10 to 1,000, are run first untimed. */
  private static int warmUps(int samples) {
    return Math.min(1_000, Math.max(10, samples / 5));
  }

  /** Terms of a 10 s lease from now. */
  public static LeaseTerms terms() {
    long now = System.currentTimeMillis();
    return new LeaseTerms(TTL, now, now + TTL.toMillis());
  }

  private static AcquireRequest request(String instance) {
    return new AcquireRequest("bench", 1024, instance, terms());
  }

  private static void print(String name, long[] ns, double requests) {
    long[] sorted = ns.clone();
    Arrays.sort(sorted);
    System.out.printf(
        Locale.ROOT,
        "%-46s %9.0f %9.0f %9.0f %9.0f %11.2f%n",
        name,
        sorted[sorted.length / 2] / 1e3,
        sorted[(int) (sorted.length * 0.99)] / 1e3,
        sorted[(int) (sorted.length * 0.999)] / 1e3,
        Arrays.stream(ns).average().orElse(0) / 1e3,
        requests);
  }
}
