package io.snowid.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseLimits;
import io.snowid.lease.LeaseTakenException;
import io.snowid.lease.LeaseTerms;
import io.snowid.lease.LeaseTermsException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A table whose rows were lost or went back (docs/design.md, "The jdbc: backend"): a DELETE of some
 * rows, a restore of an older copy, and the namespace's limits, which every holder shares. H2 in
 * the fast tier, PostgreSQL and MariaDB too in the integration tier.
 */
class JdbcRegistryLossTest {
  private static final long LOSS =
      30_000 + 5_000 + 1_000; // the default limits' maxTtl + maxSkew + 1 s

  private final String table = TestDatabase.uniqueTable();
  private final String backup = table + "_bak";
  private final List<AutoCloseable> opened = new ArrayList<>();
  private TestDatabase db;

  @AfterEach
  void cleanUp() throws Exception {
    for (AutoCloseable c : opened) {
      c.close();
    }
    if (db != null) {
      db.drop(table);
      db.drop(backup);
    }
  }

  private JdbcLeaseCoordinator open(TestDatabase database) {
    if (db == null) {
      db = database;
      database.createInService(table);
    }
    JdbcLeaseCoordinator c = JdbcLeaseCoordinator.open(db.uri(table, ""));
    opened.add(c);
    return c;
  }

  private static LeaseTerms terms(long ttl) {
    long now = System.currentTimeMillis();
    return new LeaseTerms(Duration.ofMillis(ttl), now, now + ttl);
  }

  private static AcquireRequest request(String instance, LeaseLimits limits) {
    return new AcquireRequest("ns", 4, 0, 0, instance, terms(10_000), limits);
  }

  private static AcquireRequest request(String instance) {
    return request(instance, LeaseLimits.DEFAULT);
  }

  private static AcquireRequest inOther(String instance) {
    return new AcquireRequest("other", 4, 0, 0, instance, terms(10_000), LeaseLimits.DEFAULT);
  }

  private long one(String query) throws SQLException {
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(query)) {
      assertThat(rs.next()).isTrue();
      return rs.getLong(1);
    }
  }

  private long lostUntil() throws SQLException {
    return one("SELECT lost_until FROM " + table + " WHERE namespace = 'ns' AND node_id = -1");
  }

  /**
   * One holder's row deleted while another keeps the namespace in service (its newest write is
   * recent): the count of id rows falls below what the acquisitions created, and the next holder of
   * the deleted id starts after maxTtl + maxSkew + 1 s.
   */
  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void acquire_rowDeletedWhileTheNamespaceIsInService_nextHolderWaitsOutTheLimits(
      TestDatabase database) {
    JdbcLeaseCoordinator c = open(database);
    Lease a = c.acquire(request("a"));
    Lease other = c.acquire(request("other"));
    db.execute("DELETE FROM " + table + " WHERE namespace = 'ns' AND node_id = " + a.nodeId());
    c.renew(other, terms(10_000)); // the namespace is in service

    Lease b = c.acquire(request("b"));

    assertThat(b.nodeId()).isEqualTo(a.nodeId());
    assertThat(b.highWaterMillis())
        .isBetween(b.coordinatorNowMillis() + LOSS - 1_000, b.coordinatorNowMillis() + LOSS);
    Lease later = c.acquire(request("later")); // another id, the state trusted again: same wait
    assertThat(later.highWaterMillis()).isEqualTo(b.highWaterMillis());
  }

  /**
   * A table of the version before the memory of created namespaces (no row of {@code ''} for the
   * namespace): a namespace with rows is trusted as before, and the acquisition adds the memory, so
   * that the namespace deleted afterwards is found lost.
   */
  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void acquire_tableWithoutTheMemory_trustedAsBeforeThenRemembersTheNamespace(TestDatabase database)
      throws SQLException {
    JdbcLeaseCoordinator c = open(database);
    c.acquire(request("a"));
    db.execute("DELETE FROM " + table + " WHERE namespace = '' AND node_id < -1");

    Lease b = c.acquire(request("b"));
    assertThat(b.highWaterMillis()).isLessThan(b.coordinatorNowMillis());
    assertThat(b.startReason()).isEmpty();
    assertThat(one("SELECT COUNT(*) FROM " + table + " WHERE namespace = '' AND node_id < -1"))
        .isEqualTo(1);

    db.execute("DELETE FROM " + table + " WHERE namespace = 'ns'");
    Lease next = c.acquire(request("next"));
    assertThat(next.highWaterMillis())
        .isBetween(next.coordinatorNowMillis() + LOSS - 1_000, next.coordinatorNowMillis() + LOSS);
    assertThat(next.startReason()).contains("the table created it");
  }

  /**
   * A restore of a copy of the rows taken a minute earlier (their newest write a minute old): the
   * next holder starts after lost_until, and the holder whose renewal the copy lacks finds its row
   * gone back, fences, and leaves the namespace's lost_until raised and its id released with its
   * promise.
   */
  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void restoreOfAnOlderCopy_newcomerWaitsAndTheHolderFindsTheRollback(TestDatabase database)
      throws Exception {
    JdbcLeaseCoordinator c = open(database);
    Lease a = c.acquire(request("a"));
    db.execute("CREATE TABLE " + backup + " AS SELECT * FROM " + table);
    db.execute("UPDATE " + backup + " SET renewed_at = renewed_at - 60000"); // a minute old
    Thread.sleep(5);
    LeaseTerms confirmed = terms(10_000);
    Lease renewed = c.renew(a, confirmed);
    assertThat(renewed.expiresAtMillis()).isGreaterThan(a.expiresAtMillis());
    db.execute("DELETE FROM " + table, "INSERT INTO " + table + " SELECT * FROM " + backup);

    Lease b = c.acquire(request("b"));

    assertThat(b.nodeId()).isNotEqualTo(a.nodeId()); // a's lease is live in the copy
    assertThat(b.highWaterMillis())
        .isEqualTo(lostUntil())
        .isBetween(b.coordinatorNowMillis() + LOSS - 1_000, b.coordinatorNowMillis() + LOSS);
    long before = lostUntil();

    LeaseTerms promise = terms(10_000);
    assertThatThrownBy(() -> c.renew(renewed, promise))
        .isInstanceOf(LeaseTakenException.class)
        .hasMessageContaining("went back to an older state")
        .hasMessageContaining("restored from an older backup");
    assertThat(lostUntil()).isGreaterThanOrEqualTo(before);
    assertThat(
            one(
                "SELECT COUNT(*) FROM "
                    + table
                    + " WHERE namespace = 'ns' AND node_id = "
                    + a.nodeId()
                    + " AND token IS NULL AND high_water >= "
                    + promise.mayIssueUntilMillis()))
        .isEqualTo(1);
    Lease again = c.acquire(request("a")); // the holder leases again, after lost_until
    assertThat(again.nodeId()).isEqualTo(a.nodeId());
    assertThat(again.highWaterMillis()).isGreaterThanOrEqualTo(lostUntil());
  }

  private static final LeaseLimits SKEW_1S =
      new LeaseLimits(Duration.ofSeconds(30), Duration.ofSeconds(1));

  /** When the table's registry row says a loss of the table was found. */
  private long registryLostAt() throws SQLException {
    return one("SELECT lost_until FROM " + table + " WHERE namespace = '' AND node_id = -1");
  }

  /**
   * Two holders renew after a copy of the table is taken; {@code gapMillis} later the copy is put
   * back and the finder's renewal finds the restore and records it. Returns the cut-off holder's
   * lease, to renew next.
   */
  private Lease restoreFoundByAnotherHolderAfter(JdbcLeaseCoordinator c, long gapMillis)
      throws Exception {
    Lease cut = c.acquire(request("cut", SKEW_1S));
    Lease finder = c.acquire(request("finder", SKEW_1S));
    db.execute("CREATE TABLE " + backup + " AS SELECT * FROM " + table);
    Thread.sleep(5);
    Lease cutRenewed = c.renew(cut, terms(10_000));
    Lease finderRenewed = c.renew(finder, terms(10_000));
    Thread.sleep(gapMillis);
    db.execute("DELETE FROM " + table, "INSERT INTO " + table + " SELECT * FROM " + backup);
    assertThatThrownBy(() -> c.renew(finderRenewed, terms(10_000)))
        .isInstanceOf(LeaseTakenException.class)
        .hasMessageContaining("went back to an older state");
    Thread.sleep(200);
    return cutRenewed;
  }

  // A holder cut off while another found the restore found its row gone back when it came back,
  // recorded the loss anew, and newcomers waited a whole loss wait from then (the 600 s PostgreSQL
  // run: 15.8 s after a rollback where 13 s were due, 7.8 s after a partition where 5 s were).
  // The loss is taken on when stamped later than the holder's write could commit (its statement's
  // timeout, 1 s here) by more than maxSkew.
  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void renew_afterAnotherHolderFoundTheRestore_takesThatLossOnNotANewOne(TestDatabase database)
      throws Exception {
    JdbcLeaseCoordinator c = open(database);
    Lease cut = restoreFoundByAnotherHolderAfter(c, 1_000 + SKEW_1S.maxSkew().toMillis() + 500);
    long found = registryLostAt();
    long before = lostUntil();

    assertThatThrownBy(() -> c.renew(cut, terms(10_000)))
        .isInstanceOf(LeaseTakenException.class)
        .hasMessageContaining("went back to an older state")
        .hasMessageContaining(
            "newcomers start after "
                + java.time.Instant.ofEpochMilli(Math.max(before, SKEW_1S.lostUntilMillis(found))));
    assertThat(lostUntil()).isEqualTo(before);
    assertThat(registryLostAt()).isEqualTo(found);
  }

  // A loss stamped too soon after the holder's write may have committed before it, and been in
  // the copy that lacks the write: the holder records the loss anew.
  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void renew_afterALossStampedTooSoonAfterItsWrite_recordsTheLossAnew(TestDatabase database)
      throws Exception {
    JdbcLeaseCoordinator c = open(database);
    Lease cut = restoreFoundByAnotherHolderAfter(c, 0);
    long found = registryLostAt();
    long before = lostUntil();

    assertThatThrownBy(() -> c.renew(cut, terms(10_000)))
        .isInstanceOf(LeaseTakenException.class)
        .hasMessageContaining("went back to an older state");
    assertThat(registryLostAt()).isGreaterThan(found);
    assertThat(lostUntil()).isGreaterThan(before);
  }

  /**
   * A holder with other limits than the live holders' is refused, naming them; once no lease is
   * live, it is accepted and its limits become the namespace's.
   */
  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void acquire_otherLimitsWhileAHolderIsLive_refusedThenAcceptedOnceNoneIs(TestDatabase database)
      throws SQLException {
    JdbcLeaseCoordinator c = open(database);
    LeaseLimits small = new LeaseLimits(Duration.ofSeconds(10), Duration.ofSeconds(2));
    Lease live = c.acquire(request("live", small));

    assertThatThrownBy(() -> c.acquire(request("other")))
        .isInstanceOf(LeaseTermsException.class)
        .hasMessageContaining("1 live holder(s) with maxTtl 10s, maxSkew 2s")
        .hasMessageContaining("asks for maxTtl 30s, maxSkew 5s");
    Lease same = c.acquire(request("same", small));
    assertThat(same.nodeId()).isNotEqualTo(live.nodeId());

    c.release(live, System.currentTimeMillis());
    c.release(same, System.currentTimeMillis());
    Lease other = c.acquire(request("other"));

    // no loss to wait out: at most the last holder's mark, its release a moment ago
    assertThat(other.highWaterMillis()).isLessThan(other.coordinatorNowMillis() + 1_000);
    assertThat(one("SELECT max_ttl FROM " + table + " WHERE namespace = 'ns' AND node_id = -1"))
        .isEqualTo(30_000);
    assertThat(one("SELECT max_skew FROM " + table + " WHERE namespace = 'ns' AND node_id = -1"))
        .isEqualTo(5_000);
  }

  /**
   * A renewal of namespace "ns" found its row gone back (a restore of a copy taken a moment before,
   * which looks current): holders of any namespace may have been forgotten, so a namespace the copy
   * did not have waits too, though the table has recent writes.
   */
  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void acquire_newNamespaceAfterARenewalFoundARollback_waitsOutTheLoss(TestDatabase database)
      throws Exception {
    JdbcLeaseCoordinator c = open(database);
    Lease a = c.acquire(request("a"));
    db.execute("CREATE TABLE " + backup + " AS SELECT * FROM " + table);
    Thread.sleep(5);
    Lease renewed = c.renew(a, terms(10_000));
    db.execute("DELETE FROM " + table, "INSERT INTO " + table + " SELECT * FROM " + backup);
    assertThatThrownBy(() -> c.renew(renewed, terms(10_000)))
        .isInstanceOf(LeaseTakenException.class)
        .hasMessageContaining("went back to an older state");

    Lease other = c.acquire(inOther("b"));

    assertThat(other.highWaterMillis())
        .isBetween(
            other.coordinatorNowMillis() + LOSS - 1_000, other.coordinatorNowMillis() + LOSS);
  }

  /**
   * The whole table restored from a copy a minute old: the first acquisition (namespace "ns") finds
   * its namespace and the rest of the table idle, a loss of the table's state; a namespace the copy
   * did not have, acquired after that first acquisition wrote, waits too.
   */
  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void acquire_newNamespaceAfterAnotherFoundTheTableRestored_waitsOutTheLoss(TestDatabase database)
      throws Exception {
    JdbcLeaseCoordinator c = open(database);
    c.acquire(request("a"));
    db.execute("CREATE TABLE " + backup + " AS SELECT * FROM " + table);
    db.execute("UPDATE " + backup + " SET renewed_at = renewed_at - 60000");
    db.execute("DELETE FROM " + table, "INSERT INTO " + table + " SELECT * FROM " + backup);
    Lease first = c.acquire(request("b"));
    assertThat(first.highWaterMillis()).isGreaterThan(first.coordinatorNowMillis() + LOSS - 1_000);

    Lease other = c.acquire(inOther("c"));

    assertThat(other.highWaterMillis())
        .isBetween(
            other.coordinatorNowMillis() + LOSS - 2_000, other.coordinatorNowMillis() + LOSS);
  }

  /**
   * One namespace idle for longer than its maxTtl (its fleet stopped overnight) in a table others
   * write to: only that namespace's first holder waits; a new namespace does not.
   */
  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void acquire_idleNamespaceInABusyTable_doesNotMakeOtherNamespacesWait(TestDatabase database) {
    JdbcLeaseCoordinator c = open(database);
    c.release(c.acquire(request("a")), System.currentTimeMillis());
    db.execute("UPDATE " + table + " SET renewed_at = renewed_at - 60000 WHERE namespace = 'ns'");
    Lease idle = c.acquire(request("b"));
    assertThat(idle.highWaterMillis()).isGreaterThan(idle.coordinatorNowMillis() + LOSS - 1_000);

    Lease other = c.acquire(inOther("c"));

    assertThat(other.highWaterMillis()).isLessThan(other.coordinatorNowMillis());
  }

  /**
   * A restore of a backup taken before a holder acquired (its row absent) or while an earlier
   * holder had the id released: the holder's renewal finds its grant gone before its expiry, which
   * proves the loss, so a newcomer after it starts past what the holder may issue.
   */
  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void renew_rowGoneBeforeItsExpiryAfterARestore_newcomersStartAfterTheHolder(
      TestDatabase database) {
    JdbcLeaseCoordinator c = open(database);
    c.acquire(inOther("busy"));
    renewAfterARestore_newcomerStartsAfterTheHolder(c, "before its expiry: the table lost");
  }

  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void renew_rowReleasedBeforeItsExpiryAfterARestore_newcomersStartAfterTheHolder(
      TestDatabase database) {
    JdbcLeaseCoordinator c = open(database);
    c.release(c.acquire(request("p")), System.currentTimeMillis());
    renewAfterARestore_newcomerStartsAfterTheHolder(c, "before its expiry");
  }

  /** A backup, a holder acquires and renews, the backup is restored, the holder renews. */
  private void renewAfterARestore_newcomerStartsAfterTheHolder(JdbcLeaseCoordinator c, String why) {
    db.execute("CREATE TABLE " + backup + " AS SELECT * FROM " + table);
    Lease h = c.acquire(request("h"));
    LeaseTerms promised = terms(10_000);
    Lease renewed = c.renew(h, promised);
    db.execute("DELETE FROM " + table, "INSERT INTO " + table + " SELECT * FROM " + backup);

    assertThatThrownBy(() -> c.renew(renewed, terms(10_000)))
        .isInstanceOf(LeaseTakenException.class)
        .hasMessageContaining(why);
    Lease next = c.acquire(request("n"));

    assertThat(next.nodeId()).isEqualTo(h.nodeId());
    assertThat(next.highWaterMillis()).isGreaterThan(promised.mayIssueUntilMillis());
  }

  /**
   * A holder with small limits (maxTtl 1s) in a table whose fleet renews every 3.3 s: the table is
   * not idle by the fleet's maxTtl, so it marks no loss for everyone, and it is refused in the
   * fleet's namespace while the fleet lives.
   */
  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void acquire_smallLimitsInABusyTable_marksNoLossAndIsRefusedBesideTheFleet(TestDatabase database)
      throws Exception {
    JdbcLeaseCoordinator c = open(database);
    c.acquire(request("fleet"));
    Thread.sleep(1_200); // between two of the fleet's renewals
    LeaseLimits tiny = new LeaseLimits(Duration.ofSeconds(1), Duration.ZERO);
    c.acquire(new AcquireRequest("tiny", 4, 0, 0, "s", terms(1_000), tiny));

    Lease other = c.acquire(inOther("n"));

    assertThat(other.highWaterMillis()).isLessThan(other.coordinatorNowMillis());
    assertThatThrownBy(() -> c.acquire(request("s2", tiny)))
        .isInstanceOf(LeaseTermsException.class)
        .hasMessageContaining("1 live holder(s) with maxTtl 30s, maxSkew 5s");
  }

  /**
   * Mixed limits after a TRUNCATE: the holder that lost its row leased with ttl 30 s (maxTtl 30 s);
   * the next holder, whose own ttl is 2 s, still starts after the truncate + maxTtl + maxSkew + 1 s
   * (36 s), past everything the old holder may issue; its own ttl + 1 s after the table's registry
   * row would not be.
   */
  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void acquire_truncatedUnderALongerTtlHolder_waitsOutMaxTtlAndMaxSkew(TestDatabase database)
      throws SQLException {
    JdbcLeaseCoordinator c = open(database);
    LeaseTerms longer = terms(30_000);
    c.acquire(new AcquireRequest("limit", 1, "old", longer));
    long truncated = one("SELECT " + Dialect.ofUrl(database.url()).now);
    database.execute("TRUNCATE TABLE " + table);

    Lease next = c.acquire(new AcquireRequest("limit", 1, "next", terms(2_000)));

    assertThat(next.highWaterMillis())
        .isGreaterThanOrEqualTo(truncated + 30_000 + 5_000 + 1_000)
        .isGreaterThan(longer.mayIssueUntilMillis());
  }
}
