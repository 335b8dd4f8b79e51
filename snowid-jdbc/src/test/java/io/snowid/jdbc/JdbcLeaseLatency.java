package io.snowid.jdbc;

import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.testkit.LeaseLatency;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * Latency of the JDBC lease calls, one caller, against a database given by its JDBC URL (default
 * the shared PostgreSQL): what BENCHMARKS.md, "SQL leases", records. Not a test; run it with the
 * module's test class path:
 *
 * <pre>
 * java -cp … io.snowid.jdbc.JdbcLeaseLatency [URL [SAMPLES [IDLE_SAMPLES]]]
 * </pre>
 *
 * The rows and how they are timed: {@link LeaseLatency}; COMMIT counts as a statement. The "idle"
 * row waits 0.6 s before each renewal, as a holder does between renewals: HikariCP then checks the
 * connection (isValid, one more round trip) before handing it out.
 */
public final class JdbcLeaseLatency {
  private JdbcLeaseLatency() {}

  public static void main(String[] args) throws Exception {
    String url = args.length > 0 ? args[0] : TestDatabase.POSTGRESQL.url();
    int samples = args.length > 1 ? Integer.parseInt(args[1]) : 5_000;
    int idleSamples = args.length > 2 ? Integer.parseInt(args[2]) : 100;
    String table = TestDatabase.uniqueTable();
    String uri = url + (url.contains("?") ? "&" : "?") + "table=" + table;
    try {
      JdbcLeaseCoordinator.open(uri + "&create=true").close();
      execute(url, "UPDATE " + table + " SET acquired_at = acquired_at - 3600000");
      try (JdbcLeaseCoordinator c = JdbcLeaseCoordinator.open(uri);
          Connection plain = DriverManager.getConnection(url);
          PreparedStatement one = plain.prepareStatement("SELECT 1")) {
        LeaseLatency latency = new LeaseLatency(c, c::statements, "statements", samples);
        // SELECT 1 on a plain connection of the same driver
        latency.floor(
            "SELECT 1 (floor: one round trip)",
            () -> {
              try (ResultSet rs = one.executeQuery()) {
                return rs.next();
              }
            });
        Lease[] idle = {
          c.acquire(new AcquireRequest("bench-idle", 1, "idle", LeaseLatency.terms()))
        };
        latency.row(
            "renew after 0.6 s idle (" + idleSamples + " samples)",
            idleSamples,
            () -> {
              sleep(600);
              return latency.time(() -> idle[0] = c.renew(idle[0], LeaseLatency.terms()));
            });
        latency.standardRows();
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

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
