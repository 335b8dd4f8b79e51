package io.snowid.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseTerms;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The JDBC coordinator under connection settings it does not choose, each on the real database
 * concerned, in a table of its own that is dropped afterwards: an application pool with autocommit
 * off, a JVM time zone other than UTC, a PostgreSQL whose default isolation is stricter than READ
 * COMMITTED, and a password that the driver must read as written.
 */
class JdbcConnectionSettingsTest {
  private final String table = TestDatabase.uniqueTable();
  private final List<AutoCloseable> opened = new ArrayList<>();
  private TestDatabase db;

  @AfterEach
  void cleanUp() throws Exception {
    for (AutoCloseable c : opened) {
      c.close();
    }
    if (db != null) {
      db.drop(table);
    }
  }

  private static LeaseTerms terms(long ttl) {
    long now = System.currentTimeMillis();
    return new LeaseTerms(Duration.ofMillis(ttl), now, now + ttl);
  }

  private static AcquireRequest request(String namespace, long size, String instance, long ttl) {
    return new AcquireRequest(namespace, size, instance, terms(ttl));
  }

  /**
   * An application pool that hands out connections with autocommit off: renewals, releases and the
   * namespace's row are committed all the same (the pool would roll them back), or the holder would
   * go on issuing under a lease the database has let expire.
   */
  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void renewAndRelease_dataSourceWithAutocommitOff_areCommitted(TestDatabase database)
      throws SQLException {
    db = database;
    database.createInService(table);
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(database.url());
    config.setAutoCommit(false);
    config.setMaximumPoolSize(2);
    HikariDataSource pool = new HikariDataSource(config);
    opened.add(pool);
    JdbcLeaseCoordinator c = JdbcLeaseCoordinator.open(pool, "?table=" + table);
    opened.add(c);

    Lease l = c.acquire(request("autocommit", 4, "svc", 2_000));
    Lease renewed = c.renew(l, terms(60_000));
    assertThat(committed("SELECT expires_at FROM " + table + idRow(l)))
        .isEqualTo(renewed.expiresAtMillis());
    assertThat(
            committed(
                "SELECT COUNT(*) FROM "
                    + table
                    + " WHERE namespace = 'autocommit'"
                    + " AND node_id = -1"))
        .isEqualTo(1L);

    long issued = System.currentTimeMillis();
    c.release(renewed, issued);
    assertThat(committed("SELECT high_water FROM " + table + idRow(l))).isEqualTo(issued);
    assertThat(committed("SELECT COUNT(*) FROM " + table + idRow(l) + " AND token IS NULL"))
        .isEqualTo(1L);
    try (Connection conn = pool.getConnection()) {
      assertThat(conn.getAutoCommit())
          .as("the pool's connections given back as they came")
          .isFalse();
    }
  }

  private static String idRow(Lease l) {
    return " WHERE namespace = 'autocommit' AND node_id = " + l.nodeId();
  }

  /** A long read on a connection of the test's own, which sees only committed rows. */
  private long committed(String query) throws SQLException {
    try (Connection conn = db.connect();
        Statement s = conn.createStatement();
        ResultSet rs = s.executeQuery(query)) {
      assertThat(rs.next()).isTrue();
      return rs.getLong(1);
    }
  }

  /**
   * H2's clock is read as Unix time under any JVM time zone: counted in local time it would be off
   * by the zone's offset, and every acquisition would fail as a clock skew of an hour.
   */
  @ParameterizedTest
  @ValueSource(strings = {"Europe/Berlin", "America/St_Johns", "Asia/Kathmandu"})
  void acquire_h2UnderANonUtcTimeZone_databaseClockIsUnixTime(String zone) {
    TimeZone before = TimeZone.getDefault();
    TimeZone.setDefault(TimeZone.getTimeZone(zone));
    String url = "jdbc:h2:mem:snowid-tz-" + UUID.randomUUID();
    try (JdbcLeaseCoordinator c =
        JdbcLeaseCoordinator.open(url + "?table=" + table + "&create=true")) {
      long local = System.currentTimeMillis();
      Lease l = c.acquire(request("tz", 4, "svc", 2_000));
      // an offset of a zone is at least 30 minutes; the clocks of one JVM agree far closer
      assertThat(Math.abs(l.coordinatorNowMillis() - local)).isLessThan(60_000L);
    } finally {
      TimeZone.setDefault(before);
    }
  }

  /**
   * PostgreSQL whose default isolation is REPEATABLE READ or SERIALIZABLE: a lease call runs READ
   * COMMITTED, since waiters for the namespace's row that took their snapshot before the lock was
   * granted would fail on the winner's row (15 of 16 simultaneous acquisitions).
   */
  @Tag("integration")
  @ParameterizedTest
  @ValueSource(strings = {"repeatable%5C%20read", "serializable"})
  void acquire_sixteenAtOnceOnPostgresStricterIsolation_allGetDistinctIds(String level)
      throws InterruptedException {
    db = TestDatabase.POSTGRESQL;
    db.createInService(table);
    String uri = db.uri(table, "&options=-c%20default_transaction_isolation%3D" + level);
    int holders = 16;
    List<JdbcLeaseCoordinator> coordinators = new ArrayList<>();
    for (int i = 0; i < holders; i++) {
      JdbcLeaseCoordinator c = JdbcLeaseCoordinator.open(uri);
      opened.add(c);
      coordinators.add(c);
    }
    Map<Integer, Long> ids = new ConcurrentHashMap<>();
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    CountDownLatch ready = new CountDownLatch(holders);
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < holders; i++) {
      int n = i;
      JdbcLeaseCoordinator c = coordinators.get(i);
      Thread t =
          new Thread(
              () -> {
                try {
                  ready.countDown();
                  go.await();
                  ids.put(n, c.acquire(request("iso", 16, "holder-" + n, 10_000)).nodeId());
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                } catch (RuntimeException e) {
                  errors.add(e);
                }
              });
      threads.add(t);
      t.start();
    }
    ready.await();
    go.countDown();
    for (Thread t : threads) {
      t.join(TimeUnit.MINUTES.toMillis(2));
      assertThat(t.isAlive()).as("an acquisition still runs after 2 minutes").isFalse();
    }

    assertThat(errors).isEmpty();
    assertThat(new HashSet<>(ids.values())).hasSize(holders);
  }

  /**
   * Driver parameters reach the driver as written: MariaDB's driver reads its URL literally, so a
   * password URL-decoded and handed over as a property would fail where it works with the driver
   * alone ({@code a+b%41c}).
   */
  @Tag("integration")
  @Test
  void open_mariaDbPasswordWithPercentAndPlus_reachesTheDriverAsWritten() {
    db = TestDatabase.MARIADB;
    String user = "snowid_pw_" + table.substring(table.length() - 8);
    String password = "a+b%41c";
    db.execute(
        "CREATE USER '" + user + "'@'%' IDENTIFIED BY '" + password + "'",
        "GRANT ALL ON test.* TO '" + user + "'@'%'");
    try {
      String uri =
          "jdbc:mariadb://127.0.0.1:3306/test?user="
              + user
              + "&password="
              + password
              + "&table="
              + table
              + "&create=true";
      try (JdbcLeaseCoordinator c = JdbcLeaseCoordinator.open(uri)) {
        assertThat(c.acquire(request("pw", 4, "svc", 60_000)).nodeId()).isZero();
      }
    } finally {
      db.execute("DROP USER '" + user + "'@'%'");
    }
  }
}
