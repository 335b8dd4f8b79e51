package io.snowid.jdbc;

import io.snowid.testkit.HolderJvm;
import io.snowid.testkit.TcpCut;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lease table restored from a {@code pg_dump} taken a while before, under a live holder A (a real
 * JVM) cut off from the database, on a private PostgreSQL: the newcomer B (another JVM) must start
 * after everything A issued, and after the bound the limits give, although the restored rows show
 * A's lease long expired.
 */
@Tag("integration")
class JdbcRegistryLossProcessTest {
  private static final String TABLE = "snowid_restored";
  private static final long MAX_TTL = 8_000;
  private static final long MAX_SKEW = 1_000;

  @TempDir Path dir;

  @Test
  void nextId_tableRestoredFromAnOlderDump_newcomerStartsAfterTheOldHolder() throws Exception {
    try (PrivatePostgres pg = PrivatePostgres.create()) {
      String url = pg.url();
      JdbcLeaseCoordinator.open(url + "&table=" + TABLE + "&create=true").close();
      putInService(url);
      String options = "&table=" + TABLE + "&namespace=restored&ttl=8s&maxTtl=8s&maxSkew=1s";
      String node = url + options;
      try (TcpCut link = new TcpCut(pg.port());
          HolderJvm a =
              HolderJvm.start(
                  url.replace(":" + pg.port() + "/", ":" + link.port() + "/") + options,
                  dir,
                  "a")) {
        a.await("ready", 0, Duration.ofMinutes(2));
        Path dump = pg.dump(TABLE);
        Thread.sleep(MAX_TTL + 2_000); // A renews on; the dump grows older than a lease

        link.cut(); // A can no longer renew: it issues on until its deadline
        pg.stopImmediately();
        pg.start();
        pg.restore(TABLE, dump);
        long restored = System.currentTimeMillis();
        try (HolderJvm b = HolderJvm.start(node, dir, "b")) {
          b.await("ready", 0, Duration.ofMinutes(2));
          a.await("fenced", 0, Duration.ofMinutes(1));
          Thread.sleep(300);
          a.stop();
          b.stop();

          a.assertNewcomerStartedAfter(b, restored + MAX_TTL + MAX_SKEW + 1_000);
        }
      }
    }
  }

  /** A table in service: its registry row, and a write by another namespace just now. */
  private static void putInService(String url) throws Exception {
    long now = System.currentTimeMillis();
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.execute(
          "INSERT INTO "
              + TABLE
              + " (namespace, node_id, instance, host, acquired_at, renewed_at) VALUES"
              + " ('', -1, '', '', 0, 0), ('in-service', 0, 'x', 'y', 0, "
              + now
              + ")");
    }
  }
}
