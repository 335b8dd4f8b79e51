package io.snowid.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseTerms;
import io.snowid.testkit.HolderJvm;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The JDBC coordinator on the real MariaDB with triggers on its lease table (RELIABILITY.md,
 * finding 1): where a trigger ran, the server sends back 0 with the row count, and a renewal must
 * not take that 0 for the database's clock and fence. Each test has a lease table and an audit
 * table of its own, dropped afterwards (the triggers go with the lease table).
 */
@Tag("integration")
class MariaDbTriggerRegressionTest {
  private static final TestDatabase DB = TestDatabase.MARIADB;

  private final String table = TestDatabase.uniqueTable();
  private final String audit = table + "_audit";
  private final List<AutoCloseable> opened = new ArrayList<>();
  @TempDir Path dir;

  /** Triggers a database administrator may put on the lease table. */
  enum Trigger {
    /** The harness's: records each change in a table whose key is AUTO_INCREMENT. */
    AFTER_UPDATE_INSERTING_WITH_AUTO_INCREMENT("AFTER UPDATE", true, "%s"),
    /** The same, run before the row is updated. */
    BEFORE_UPDATE_INSERTING_WITH_AUTO_INCREMENT("BEFORE UPDATE", true, "%s"),
    /** Records each change in a table without an AUTO_INCREMENT key. */
    AFTER_UPDATE_INSERTING_WITHOUT_AUTO_INCREMENT("AFTER UPDATE", false, "%s"),
    /** Inserts nothing: stamps a column of the new row. */
    BEFORE_UPDATE_SETTING_A_COLUMN("BEFORE UPDATE", false, "SET NEW.host = NEW.host"),
    /** Sets the connection's LAST_INSERT_ID to a value of its own, then records the change. */
    AFTER_UPDATE_SETTING_LAST_INSERT_ID(
        "AFTER UPDATE", true, "BEGIN SET @snowid_test = LAST_INSERT_ID(7); %s; END");

    final String timing;
    final boolean autoIncrement;
    final String body;

    Trigger(String timing, boolean autoIncrement, String body) {
      this.timing = timing;
      this.autoIncrement = autoIncrement;
      this.body = body;
    }
  }

  @AfterEach
  void cleanUp() throws Exception {
    for (AutoCloseable c : opened) {
      c.close();
    }
    DB.drop(table); // and its triggers
    DB.drop(audit);
  }

  /**
   * Puts the lease table in service and creates the audit table; an AUTO_INCREMENT key starts at
   * the database's clock less 1 ms, so that an audit id taken for the clock would be plausible
   * (within any allowed skew) and still wrong (before the renewal).
   */
  private void createTables(boolean autoIncrement) throws SQLException {
    DB.createInService(table);
    String columns = "node_id BIGINT, token VARCHAR(36), acquired_at BIGINT, renewed_at BIGINT";
    DB.execute(
        autoIncrement
            ? "CREATE TABLE "
                + audit
                + " (id BIGINT AUTO_INCREMENT PRIMARY KEY, "
                + columns
                + ") AUTO_INCREMENT = "
                + (databaseNow() - 1)
            : "CREATE TABLE " + audit + " (" + columns + ")");
  }

  private void createTrigger(String name, String timing, String body) {
    String record =
        "INSERT INTO "
            + audit
            + " (node_id, token, acquired_at, renewed_at) VALUES (NEW.node_id, NEW.token,"
            + " NEW.acquired_at, NEW.renewed_at)";
    DB.execute(
        "CREATE TRIGGER "
            + table
            + "_"
            + name
            + " "
            + timing
            + " ON "
            + table
            + " FOR EACH ROW "
            + String.format(body, record));
  }

  private JdbcLeaseCoordinator open() {
    JdbcLeaseCoordinator c = JdbcLeaseCoordinator.open(DB.uri(table, ""));
    opened.add(c);
    return c;
  }

  private static LeaseTerms terms(long ttl) {
    long now = System.currentTimeMillis();
    return new LeaseTerms(Duration.ofMillis(ttl), now, now + ttl);
  }

  private static AcquireRequest request(String instance, long ttl) {
    return new AcquireRequest("ns", 4, instance, terms(ttl));
  }

  /**
   * The harness's trigger: a renewal reads the database's time, not 1970-01-01T00:00:00Z, so the
   * holder is not fenced for clock skew at each one.
   */
  @Test
  void renew_leaseTableWithAnInsertingTrigger_readsTheDatabaseClock() throws SQLException {
    createTables(true);
    createTrigger("audit", "AFTER UPDATE", "%s");
    JdbcLeaseCoordinator c = open();
    Lease held = c.acquire(request("svc", 60_000));

    long before = databaseNow();
    Lease renewed = c.renew(held, terms(60_000));
    long after = databaseNow();

    assertThat(renewed.coordinatorNowMillis()).isBetween(before, after);
    assertThat(renewed.coordinatorNowMillis()).isEqualTo(renewedAt(held.nodeId()));
    assertThat(renewed.expiresAtMillis()).isEqualTo(renewed.coordinatorNowMillis() + 60_000);
    assertThat(auditedRenewals()).as("the trigger ran").isEqualTo(1);
  }

  /** Every kind of trigger: the database's clock, never 0, an audit id or the trigger's value. */
  @ParameterizedTest
  @EnumSource(Trigger.class)
  void renew_leaseTableWithATrigger_readsTheDatabaseClock(Trigger trigger) throws SQLException {
    createTables(trigger.autoIncrement);
    createTrigger("t", trigger.timing, trigger.body);
    JdbcLeaseCoordinator c = open();
    Lease lease = c.acquire(request("svc", 60_000));

    for (int i = 0; i < 3; i++) {
      long before = databaseNow();
      lease = c.renew(lease, terms(60_000));
      long after = databaseNow();

      assertThat(lease.coordinatorNowMillis()).isBetween(before, after);
      assertThat(lease.coordinatorNowMillis()).isEqualTo(renewedAt(lease.nodeId()));
    }
  }

  /** Without a trigger the clock comes back with the row count: one statement, one round trip. */
  @Test
  void renew_leaseTableWithoutTrigger_oneStatement() throws SQLException {
    createTables(true);
    JdbcLeaseCoordinator c = open();
    Lease held = c.acquire(request("svc", 60_000));

    long before = c.statements();
    Lease renewed = c.renew(held, terms(60_000));

    assertThat(c.statements() - before).isEqualTo(1);
    assertThat(renewed.coordinatorNowMillis()).isEqualTo(renewedAt(held.nodeId()));
  }

  /**
   * Acquisitions (a new row: INSERT; a released one: UPDATE), renewals and releases under triggers
   * that record every insert and update: each answers the database's clock, and a release frees the
   * id for the next instance at once.
   */
  @Test
  void acquireRenewRelease_leaseTableWithInsertingTriggers_databaseClockAndIdFreed()
      throws SQLException {
    createTables(true);
    createTrigger("ins", "AFTER INSERT", "%s");
    createTrigger("upd", "AFTER UPDATE", "%s");
    JdbcLeaseCoordinator c = open();

    long before = databaseNow();
    Lease first = c.acquire(request("first", 60_000)); // the namespace's row, then id 0's
    long after = databaseNow();
    assertThat(first.coordinatorNowMillis()).isBetween(before, after);
    assertThat(first.expiresAtMillis()).isEqualTo(first.coordinatorNowMillis() + 60_000);
    Lease renewed = c.renew(first, terms(60_000));
    assertThat(renewed.coordinatorNowMillis()).isEqualTo(renewedAt(first.nodeId()));
    c.release(renewed, System.currentTimeMillis());
    assertThat(c.listRows("ns"))
        .extracting(JdbcLeaseCoordinator.Row::state)
        .containsExactly(JdbcLeaseCoordinator.State.RELEASED);

    before = databaseNow();
    Lease next = open().acquire(request("next", 60_000)); // claims the released row
    after = databaseNow();

    assertThat(next.nodeId()).isEqualTo(first.nodeId());
    assertThat(next.coordinatorNowMillis()).isBetween(before, after);
    assertThat(next.expiresAtMillis()).isEqualTo(next.coordinatorNowMillis() + 60_000);
    assertThat(c.listRows("ns"))
        .extracting(JdbcLeaseCoordinator.Row::state)
        .containsExactly(JdbcLeaseCoordinator.State.HELD);
    assertThat(auditRows()).as("the triggers ran").isGreaterThanOrEqualTo(5);
  }

  /**
   * A real process takes IDs on a lease of a table with the harness's trigger through several
   * renewals (counted in the audit table): it is never fenced and writes no gap.
   */
  @Test
  void nextId_leaseTableWithAnInsertingTrigger_holderIsNeverFenced() throws Exception {
    createTables(true);
    createTrigger("audit", "AFTER UPDATE", "%s");
    HolderJvm holder = HolderJvm.start(DB.uri(table, "&namespace=fleet&ttl=2s"), dir, "holder");
    opened.add(holder);
    holder.await("ready", 0, Duration.ofMinutes(2));

    long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
    while (auditedRenewals() < 3) {
      assertThat(System.nanoTime()).as("3 renewals within a minute").isLessThan(deadline);
      Thread.sleep(50);
    }
    holder.stop();

    assertThat(holder.lines())
        .extracting(HolderJvm.Line::text)
        .as(holder.stderr())
        .noneMatch(line -> line.startsWith("fenced "));
    long[] ids = holder.ids();
    assertThat(ids).isNotEmpty().doesNotContain(-1L);
    assertThat(Arrays.stream(ids).distinct().count()).isEqualTo(ids.length);
  }

  private static long databaseNow() throws SQLException {
    try (Connection c = DB.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT " + Dialect.MARIADB.now)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** The renewed_at the renewal wrote into the id's row: the database's clock it read. */
  private long renewedAt(long nodeId) throws SQLException {
    return single(
        "SELECT renewed_at FROM "
            + table
            + " WHERE namespace <> 'in-service' AND node_id = "
            + nodeId);
  }

  /** Renewals the trigger recorded: a holder's row changed after its acquisition. */
  private long auditedRenewals() throws SQLException {
    return single(
        "SELECT COUNT(*) FROM "
            + audit
            + " WHERE node_id >= 0 AND token IS NOT NULL AND renewed_at > acquired_at");
  }

  private long auditRows() throws SQLException {
    return single("SELECT COUNT(*) FROM " + audit);
  }

  private long single(String query) throws SQLException {
    try (Connection c = DB.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(query)) {
      assertThat(rs.next()).as(query).isTrue();
      return rs.getLong(1);
    }
  }
}
