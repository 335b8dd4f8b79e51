package io.snowid.jdbc;

import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseTerms;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Latency of the JDBC lease calls, one caller, against a database given by its JDBC URL (default
 * the shared PostgreSQL): what BENCHMARKS.md, "SQL leases", records. Not a test; run it with the
 * module's test class path:
 *
 * <pre>
 * java -cp … io.snowid.jdbc.JdbcLeaseLatency [URL [SAMPLES [IDLE_SAMPLES]]]
 * </pre>
 *
 * Each row: warm-up, then {@code samples} timed calls (System.nanoTime around the call); median,
 * p99, p99.9 and mean, and statements per timed sample from the coordinator's own count (COMMIT
 * included). The "idle" row waits 0.6 s before each renewal, as a holder does between renewals:
 * HikariCP then checks the connection (isValid, one more round trip) before handing it out. Uses a
 * table of its own and drops it afterwards.
 */
public final class JdbcLeaseLatency {
  private static final Duration TTL = Duration.ofSeconds(10);

  private JdbcLeaseLatency() {}

  public static void main(String[] args) throws Exception {
    String url = args.length > 0 ? args[0] : TestDatabase.POSTGRESQL.url();
    int samples = args.length > 1 ? Integer.parseInt(args[1]) : 5_000;
    int idleSamples = args.length > 2 ? Integer.parseInt(args[2]) : 100;
    String table = TestDatabase.uniqueTable();
    String uri = url + (url.contains("?") ? "&" : "?") + "table=" + table;
    System.out.printf(
        "%-46s %9s %9s %9s %9s %11s%n",
        "call (1 caller)", "median µs", "p99 µs", "p99.9 µs", "mean µs", "statements");
    try {
      JdbcLeaseCoordinator.open(uri + "&create=true").close();
      execute(url, "UPDATE " + table + " SET acquired_at = acquired_at - 3600000");
      try (JdbcLeaseCoordinator c = JdbcLeaseCoordinator.open(uri)) {
        selectOneBaseline(url, samples);

        Lease held = c.acquire(request(1024, "renewer"));
        Lease[] current = {held};
        row("renew", samples, () -> time(c, () -> current[0] = c.renew(current[0], terms())));
        row(
            "renew after 0.6 s idle (" + idleSamples + " samples)",
            idleSamples,
            () -> {
              sleep(600);
              return time(c, () -> current[0] = c.renew(current[0], terms()));
            });

        row("acquire + release, 1,024 ids, 1 held", samples, acquireThenRelease(c, "free"));
        row("release (timed alone)", samples, releaseOnly(c));

        for (int i = 0; i < 1022; i++) {
          c.acquire(request(1024, "holder-" + i));
        }
        // 1,023 of 1,024 held (1,022 + the renewer's): each acquisition takes the last free id
        row("acquire, 1,024 ids, 1,023 held", samples, acquireTimedThenRelease(c, "newcomer"));
      }
    } finally {
      execute(url, "DROP TABLE IF EXISTS " + table);
    }
  }

  private static void execute(String url, String sql) throws Exception {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  private static LeaseTerms terms() {
    long now = System.currentTimeMillis();
    return new LeaseTerms(TTL, now, now + TTL.toMillis());
  }

  private static AcquireRequest request(long size, String instance) {
    return new AcquireRequest("bench", size, instance, terms());
  }

  /** Statements sent inside timed calls. */
  private static long timedStatements;

  private static long time(JdbcLeaseCoordinator c, Runnable call) {
    long statements = c.statements();
    long t0 = System.nanoTime();
    call.run();
    long t = System.nanoTime() - t0;
    timedStatements += c.statements() - statements;
    return t;
  }

  /** Times acquire + release together (one sample = two calls). */
  private static LongSupplier acquireThenRelease(JdbcLeaseCoordinator c, String who) {
    return () ->
        time(
            c,
            () -> {
              Lease l = c.acquire(request(1024, who));
              c.release(l, System.currentTimeMillis());
            });
  }

  /** Times the acquisition only; releases it untimed. */
  private static LongSupplier acquireTimedThenRelease(JdbcLeaseCoordinator c, String who) {
    return () -> {
      Lease[] l = new Lease[1];
      long t = time(c, () -> l[0] = c.acquire(request(1024, who)));
      c.release(l[0], System.currentTimeMillis());
      return t;
    };
  }

  /** Times the release only; acquires untimed. */
  private static LongSupplier releaseOnly(JdbcLeaseCoordinator c) {
    return () -> {
      Lease l = c.acquire(request(1024, "releaser"));
      return time(c, () -> c.release(l, System.currentTimeMillis()));
    };
  }

  private static void row(String name, int samples, LongSupplier sample) {
    for (int i = 0; i < Math.min(1_000, Math.max(10, samples / 5)); i++) {
      long unused = sample.getAsLong(); // warm-up
    }
    long statements = timedStatements;
    long[] ns = new long[samples];
    for (int i = 0; i < samples; i++) {
      ns[i] = sample.getAsLong();
    }
    print(name, ns, (double) (timedStatements - statements) / samples);
  }

  /** {@code SELECT 1} on a plain connection of the same driver: the floor of one round trip. */
  private static void selectOneBaseline(String url, int samples) throws Exception {
    try (Connection c = DriverManager.getConnection(url);
        PreparedStatement ps = c.prepareStatement("SELECT 1")) {
      long[] ns = new long[samples];
      for (int i = -Math.min(1_000, samples / 5); i < samples; i++) {
        long t0 = System.nanoTime();
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
        }
        if (i >= 0) {
          ns[i] = System.nanoTime() - t0;
        }
      }
      print("SELECT 1 (floor: one round trip)", ns, 1);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static void print(String name, long[] ns, double statements) {
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
        statements);
  }
}
