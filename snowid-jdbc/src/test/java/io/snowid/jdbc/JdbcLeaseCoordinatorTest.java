package io.snowid.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseTakenException;
import io.snowid.lease.LeaseTerms;
import io.snowid.node.NodeIdUnavailableException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The JDBC coordinator on each database (the shared PostgreSQL and MariaDB, an embedded H2), each
 * test in a table of its own: statements per call, contention, expiry by the database's clock, a
 * table that lost its rows, and the operator's listing and release.
 */
class JdbcLeaseCoordinatorTest {
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

  /** A coordinator on a new table of {@code database}, in service unless {@code fresh}. */
  private JdbcLeaseCoordinator open(TestDatabase database, boolean fresh) {
    if (db == null) {
      db = database;
      if (fresh) {
        database.execute(database.ddl(table));
      } else {
        database.createInService(table);
      }
    }
    return open();
  }

  private JdbcLeaseCoordinator open() {
    JdbcLeaseCoordinator c = JdbcLeaseCoordinator.open(db.uri(table, ""));
    opened.add(c);
    return c;
  }

  private static LeaseTerms terms(long ttl) {
    long now = System.currentTimeMillis();
    return new LeaseTerms(Duration.ofMillis(ttl), now, now + ttl);
  }

  private static AcquireRequest request(long size, String instance, long ttl) {
    return new AcquireRequest("ns", size, instance, terms(ttl));
  }

  /** Counts the statements of one call. */
  private static long statementsOf(JdbcLeaseCoordinator c, Runnable call) {
    long before = c.statements();
    call.run();
    return c.statements() - before;
  }

  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void acquire_1023Of1024Held_asFewStatementsAsInAnEmptyNamespace(TestDatabase database)
      throws SQLException {
    JdbcLeaseCoordinator c = open(database, false);
    c.acquire(request(1024, "first", 60_000)); // id 0, and the namespace's row
    c.release(c.acquire(request(1024, "a", 60_000)), Long.MIN_VALUE); // id 1, released
    long empty = statementsOf(c, () -> c.acquire(request(1024, "b", 60_000))); // takes id 1
    long now = System.currentTimeMillis();
    try (Connection conn = db.connect();
        PreparedStatement ps =
            conn.prepareStatement(
                "INSERT INTO "
                    + table
                    + " ("
                    + LeaseSql.ID_COLUMNS
                    + ") VALUES ('ns', ?, ?, 'elsewhere', ?, ?, ?, NULL, ?, ?)")) {
      conn.setAutoCommit(false);
      for (long id = 2; id < 1024; id++) {
        boolean released = id == 700;
        ps.setLong(1, id);
        ps.setString(2, "holder-" + id);
        ps.setString(3, released ? null : "token-" + id);
        if (released) {
          ps.setNull(4, java.sql.Types.BIGINT);
        } else {
          ps.setLong(4, now + 60_000);
        }
        ps.setLong(5, now + 60_000);
        ps.setLong(6, now);
        ps.setLong(7, now);
        ps.addBatch();
      }
      ps.executeBatch();
      conn.commit();
    }

    Lease[] taken = new Lease[1];
    long full = statementsOf(c, () -> taken[0] = c.acquire(request(1024, "newcomer", 60_000)));

    assertThat(taken[0].nodeId()).isEqualTo(700);
    assertThat(taken[0].highWaterMillis()).isEqualTo(now + 60_000);
    // lock, candidates, claim (+ read back on MariaDB), commit: the same however many are held
    assertThat(full).isEqualTo(empty).isLessThanOrEqualTo(5);
    assertThatThrownBy(() -> c.acquire(request(1024, "one-too-many", 60_000)))
        .isInstanceOf(NodeIdUnavailableException.class)
        .hasMessageContaining("all 1024 node ids of namespace ns on " + c.describe())
        .hasMessageContaining("(1024 live leases)");
  }

  /** Ids 0, 1 and 3 held: a newcomer takes 2, the lowest without a row; then 4. */
  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void acquire_idsWithAGap_takesTheLowestIdWithoutARow(TestDatabase database) {
    JdbcLeaseCoordinator c = open(database, false);
    for (int i = 0; i < 4; i++) {
      c.acquire(request(8, "holder-" + i, 60_000));
    }
    db.execute("DELETE FROM " + table + " WHERE namespace = 'ns' AND node_id = 2");

    assertThat(c.acquire(request(8, "a", 60_000)).nodeId()).isEqualTo(2);
    assertThat(c.acquire(request(8, "b", 60_000)).nodeId()).isEqualTo(4);
  }

  private static AcquireRequest request(long size, long mask, long match, String instance) {
    return new AcquireRequest("ns", size, mask, match, instance, terms(60_000));
  }

  /**
   * Fixed bits in a block of 62 node bits, at the top of BIGINT (MariaDB/MySQL compute the bit
   * operators on unsigned 64 bits): the first gap, the next allowed id with a carry through 61
   * fixed bits, and two masks contending for one id; each acquisition as few statements as an
   * unmasked one.
   */
  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void acquire_fixedBitsAtTheTopOfBigint_exactIdsInAsFewStatements(TestDatabase database) {
    long size = 1L << 62;
    long low = (1L << 61) - 1; // every bit but the top one fixed to 1: 2^61 - 1 and 2^62 - 1
    long top = size - 2; // every bit but the lowest fixed to 1: 2^62 - 2 and 2^62 - 1
    JdbcLeaseCoordinator c = open(database, false);
    assertThat(c.acquire(request(size, low, low, "a")).nodeId()).isEqualTo(low);
    Lease[] b = new Lease[1];

    long statements = statementsOf(c, () -> b[0] = c.acquire(request(size, top, top, "b")));
    Lease third = c.acquire(request(size, low, low, "c"));

    assertThat(b[0].nodeId()).isEqualTo(size - 2);
    // a new id row: lock, candidates, insert (+ read back on MariaDB), the namespace's id_rows,
    // commit
    assertThat(statements).isLessThanOrEqualTo(6);
    assertThat(third.nodeId()).isEqualTo(size - 1);
    assertThatThrownBy(() -> c.acquire(request(size, top, top, "d")))
        .isInstanceOf(NodeIdUnavailableException.class)
        .hasMessageContaining("all 2 node ids of namespace ns")
        .hasMessageContaining("(2 live leases)");
  }

  /**
   * Low bits fixed to 01 (allowed: 1, 5, 9, 13), among rows the request does not allow (0 free, 2,
   * 4 and 6 held): the gap 5 between the allowed rows 1 and 9, then the free row 9, then 13 past
   * the last row.
   */
  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void acquire_lowBitsFixed_onlyAllowedRowsAndGapsCount(TestDatabase database) {
    JdbcLeaseCoordinator c = open(database, false);
    for (long id : new long[] {0, 1, 2, 4, 6, 9}) {
      Lease l = c.acquire(request(16, 15, id, "pinned-" + id));
      if (id == 0 || id == 9) {
        c.release(l, Long.MIN_VALUE);
      }
    }

    long gap = c.acquire(request(16, 3, 1, "worker-1-a")).nodeId();
    long free = c.acquire(request(16, 3, 1, "worker-1-b")).nodeId();
    long end = c.acquire(request(16, 3, 1, "worker-1-c")).nodeId();

    assertThat(List.of(gap, free, end)).containsExactly(5L, 9L, 13L);
    assertThatThrownBy(() -> c.acquire(request(16, 3, 1, "worker-1-d")))
        .isInstanceOf(NodeIdUnavailableException.class)
        .hasMessageContaining("all 4 node ids of namespace ns");
  }

  /**
   * Seeded random namespaces (size, fixed bits, and per id no row, a held row or a released one):
   * the acquisitions take exactly the allowed ids that are free or have no row, lowest first, and
   * then fail.
   */
  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void acquire_randomMasksAndRows_takesTheFreeAllowedIdsInOrder(TestDatabase database) {
    JdbcLeaseCoordinator c = open(database, false);
    Random random = new Random(20_261_127L);
    for (int round = 0; round < 20; round++) {
      String ns = "random-" + round;
      long size = 1L << (1 + random.nextInt(4));
      long mask = random.nextLong() & (size - 1);
      long match = random.nextLong() & mask;
      List<Long> expected = new ArrayList<>();
      for (long id = 0; id < size; id++) {
        int state = random.nextInt(3); // 0: no row, 1: held, 2: released
        if (state > 0) {
          Lease l = c.acquire(new AcquireRequest(ns, size, size - 1, id, "pin", terms(60_000)));
          if (state == 2) {
            c.release(l, Long.MIN_VALUE);
          }
        }
        if (state != 1 && (id & mask) == match) {
          expected.add(id);
        }
      }
      AcquireRequest masked = new AcquireRequest(ns, size, mask, match, "holder", terms(60_000));
      List<Long> taken = new ArrayList<>();
      for (int i = 0; i < expected.size(); i++) {
        taken.add(c.acquire(masked).nodeId());
      }

      assertThat(taken).as("size %d, mask %d, match %d", size, mask, match).isEqualTo(expected);
      assertThatThrownBy(() -> c.acquire(masked)).isInstanceOf(NodeIdUnavailableException.class);
    }
  }

  /**
   * Sixteen holders ask for the sixteen ids of a new namespace at the same moment: each gets one of
   * its own, none is retried more than the namespace's first row costs (no deadlock, no storm).
   */
  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void acquire_sixteenAtOnceInANamespaceOfSixteen_distinctIdsWithoutRetries(TestDatabase database)
      throws InterruptedException {
    open(database, false);
    int holders = 16;
    List<JdbcLeaseCoordinator> coordinators = new ArrayList<>();
    for (int i = 0; i < holders; i++) {
      coordinators.add(open());
    }
    Map<Integer, Long> ids = new ConcurrentHashMap<>();
    Map<Integer, Long> statements = new ConcurrentHashMap<>();
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
                  long before = c.statements();
                  ids.put(n, c.acquire(request(16, "holder-" + n, 10_000)).nodeId());
                  statements.put(n, c.statements() - before);
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
    assertThat(ids.values()).allMatch(id -> id >= 0 && id < 16);
    // at most: a lock that found no namespace row and its commit, the row's insert, then one
    // transaction of six statements (a new id row updates the namespace's row too); the first
    // transaction also inserts the row by which the table remembers creating the namespace
    assertThat(statements.values()).allMatch(n -> n <= 10, "at most 10 statements each");
    assertThat(statements.values().stream().filter(n -> n > 9))
        .as("one acquisition, the namespace's first, with more than 9 statements")
        .hasSizeLessThanOrEqualTo(1);
  }

  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void renew_expiredButNobodyTookIt_keepsTheLease(TestDatabase database) throws Exception {
    JdbcLeaseCoordinator c = open(database, false);
    Lease l = c.acquire(request(4, "slow", 300));
    awaitDatabaseTimePast(l.expiresAtMillis());

    Lease renewed = c.renew(l, terms(2_000));

    assertThat(renewed.nodeId()).isEqualTo(l.nodeId());
    assertThat(renewed.expiresAtMillis()).isEqualTo(renewed.coordinatorNowMillis() + 2_000);
    assertThat(renewed.coordinatorNowMillis()).isGreaterThanOrEqualTo(l.expiresAtMillis());
  }

  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void renew_expiredAndTakenByAnother_leaseTakenNamingTheNewHolder(TestDatabase database)
      throws Exception {
    Lease l = open(database, false).acquire(request(1, "slow", 300));
    awaitDatabaseTimePast(l.expiresAtMillis());
    Lease other = open().acquire(request(1, "fast", 2_000));
    assertThat(other.nodeId()).isEqualTo(l.nodeId());

    assertThatThrownBy(() -> open().renew(l, terms(2_000)))
        .isInstanceOf(LeaseTakenException.class)
        .hasMessageContaining("taken by instance fast on host")
        .hasMessageContaining("after this lease expired or its row was deleted");
  }

  /**
   * A live lease whose row was deleted and taken again: the renewal's failure does not say "expired
   * and taken", since the lease had not expired.
   */
  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void renew_rowDeletedAndTakenWhileLive_messageDoesNotClaimItExpired(TestDatabase database) {
    JdbcLeaseCoordinator c = open(database, false);
    Lease live = c.acquire(new AcquireRequest("deleted", 1, "old", terms(60_000)));
    database.execute("DELETE FROM " + table + " WHERE namespace = 'deleted' AND node_id = 0");
    c.acquire(new AcquireRequest("deleted", 1, "new", terms(60_000)));

    assertThatThrownBy(() -> c.renew(live, terms(60_000)))
        .isInstanceOf(LeaseTakenException.class)
        .hasMessageContaining("taken by instance new on host")
        .hasMessageNotContaining("expired and taken");
  }

  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void release_leavesNoHolderOnlyTheInstanceAndWhatWasIssued(TestDatabase database)
      throws SQLException {
    JdbcLeaseCoordinator c = open(database, false);
    Lease l = c.acquire(request(4, "svc", 2_000));
    long issued = System.currentTimeMillis();
    c.release(l, issued);

    try (Connection conn = db.connect();
        Statement s = conn.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT instance, token, expires_at, high_water FROM "
                    + table
                    + " WHERE namespace = 'ns' AND node_id = "
                    + l.nodeId())) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo("svc");
      assertThat(rs.getString(2)).isNull();
      assertThat(rs.getObject(3)).isNull();
      assertThat(rs.getLong(4)).isEqualTo(issued);
    }
    assertThatThrownBy(() -> c.renew(l, terms(2_000)))
        .isInstanceOf(LeaseTakenException.class)
        .hasMessageContaining("released");
  }

  /**
   * A new table cannot tell "never used" from "lost its rows": its first holders start after maxTtl
   * + maxSkew + 1 s (the default limits: 36 s) from the first acquisition, the same for every id.
   */
  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void acquire_firstHoldersOfANewTable_waitMaxTtlAndMaxSkewFromItsStart(TestDatabase database) {
    JdbcLeaseCoordinator c = open(database, true);
    Lease first = c.acquire(request(4, "a", 2_000));
    Lease second = c.acquire(request(4, "b", 2_000));

    assertThat(first.highWaterMillis())
        .isBetween(first.coordinatorNowMillis() + 35_000, first.coordinatorNowMillis() + 36_000);
    assertThat(second.highWaterMillis()).isEqualTo(first.highWaterMillis());
  }

  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void acquire_newNamespaceOfATableInService_doesNotWait(TestDatabase database) {
    Lease l = open(database, false).acquire(request(4, "a", 2_000));
    assertThat(l.highWaterMillis()).isLessThan(l.coordinatorNowMillis());
  }

  /**
   * Every row deleted under a live holder: its renewal says its row is gone, and the next holder of
   * its id, which cannot know what it issued, starts maxTtl + maxSkew + 1 s after the loss was
   * found, after everything the old holder may have issued.
   */
  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void acquire_tableLostItsRowsUnderAHolder_nextHolderStartsAfterAllTheOldOneMayIssue(
      TestDatabase database) {
    JdbcLeaseCoordinator c = open(database, false);
    Lease old = c.acquire(request(1, "old", 2_000));
    LeaseTerms last = terms(2_000);
    Lease renewed = c.renew(old, last);
    db.execute("DELETE FROM " + table);

    assertThatThrownBy(() -> c.renew(renewed, terms(2_000)))
        .isInstanceOf(LeaseTakenException.class)
        .hasMessageContaining("is gone");
    Lease next = open().acquire(request(1, "next", 2_000));

    assertThat(next.nodeId()).isEqualTo(old.nodeId());
    assertThat(next.highWaterMillis()).isGreaterThan(last.mayIssueUntilMillis());
    assertThat(next.highWaterMillis())
        .isBetween(next.coordinatorNowMillis() + 35_000, next.coordinatorNowMillis() + 36_000);
  }

  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void listRows_heldExpiredAndReleased_judgedByTheDatabaseClock(TestDatabase database)
      throws Exception {
    JdbcLeaseCoordinator c = open(database, false);
    Lease held = c.acquire(request(4, "held", 60_000));
    Lease expired = c.acquire(request(4, "expired", 300));
    Lease released = c.acquire(request(4, "released", 60_000));
    long issued = System.currentTimeMillis();
    c.release(released, issued);
    awaitDatabaseTimePast(expired.expiresAtMillis());

    List<JdbcLeaseCoordinator.Row> rows = c.listRows("ns");

    assertThat(rows)
        .extracting(JdbcLeaseCoordinator.Row::nodeId)
        .containsExactly(held.nodeId(), expired.nodeId(), released.nodeId());
    assertThat(rows)
        .extracting(JdbcLeaseCoordinator.Row::state)
        .containsExactly(
            JdbcLeaseCoordinator.State.HELD,
            JdbcLeaseCoordinator.State.EXPIRED,
            JdbcLeaseCoordinator.State.RELEASED);
    assertThat(rows)
        .extracting(JdbcLeaseCoordinator.Row::instance)
        .containsExactly("held", "expired", "released");
    assertThat(rows.get(0).expiresAtMillis()).isEqualTo(held.expiresAtMillis());
    assertThat(rows.get(0).host()).isNotBlank();
    assertThat(rows.get(1).databaseNowMillis()).isGreaterThanOrEqualTo(expired.expiresAtMillis());
    assertThat(rows.get(2).expiresAtMillis()).isEqualTo(Long.MIN_VALUE);
    assertThat(rows.get(2).highWaterMillis()).isEqualTo(issued);
    assertThat(c.listRows("no-such-namespace")).isEmpty();
  }

  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void releaseAbandonedRow_liveHolder_refusedNamingHolderAndExpiry(TestDatabase database) {
    JdbcLeaseCoordinator c = open(database, false);
    Lease held = c.acquire(request(4, "alive", 60_000));

    assertThatThrownBy(() -> c.releaseAbandonedRow("ns", held.nodeId()))
        .isInstanceOf(LeaseTakenException.class)
        .hasMessageContaining("held by instance alive on host")
        .hasMessageContaining(java.time.Instant.ofEpochMilli(held.expiresAtMillis()).toString());
    assertThat(c.renew(held, terms(60_000)).nodeId()).isEqualTo(held.nodeId()); // still its
  }

  /**
   * A dead holder's expired lease is released by an operator: the id is free at once for anyone,
   * and its next holder still starts after the dead one's high-water mark.
   */
  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void releaseAbandonedRow_expired_freesTheIdKeepingItsHighWaterMark(TestDatabase database)
      throws Exception {
    JdbcLeaseCoordinator c = open(database, false);
    long promised = System.currentTimeMillis() + 30_000;
    Lease dead =
        c.acquire(
            new AcquireRequest(
                "ns", 1, "dead", new LeaseTerms(Duration.ofMillis(300), 0, promised)));
    awaitDatabaseTimePast(dead.expiresAtMillis());

    c.releaseAbandonedRow("ns", dead.nodeId());
    c.releaseAbandonedRow("ns", dead.nodeId()); // released already: nothing to do

    assertThat(c.listRows("ns").get(0).state()).isEqualTo(JdbcLeaseCoordinator.State.RELEASED);
    Lease next = open().acquire(request(1, "someone-else", 2_000));
    assertThat(next.nodeId()).isEqualTo(dead.nodeId());
    assertThat(next.highWaterMillis()).isEqualTo(promised);
    assertThatThrownBy(() -> c.renew(dead, terms(2_000))).isInstanceOf(LeaseTakenException.class);
  }

  @ParameterizedTest
  @MethodSource("io.snowid.jdbc.TestDatabase#inThisRun")
  void releaseAbandonedRow_noSuchId_changesNothing(TestDatabase database) {
    JdbcLeaseCoordinator c = open(database, false);
    c.releaseAbandonedRow("ns", 5);
    assertThat(c.listRows("ns")).isEmpty();
  }

  /** Waits until the database's own clock passes a time. */
  private void awaitDatabaseTimePast(long millis) throws Exception {
    LeaseSql sql = new LeaseSql(Dialect.ofUrl(db.url()), table);
    try (Connection conn = db.connect();
        Statement s = conn.createStatement()) {
      while (true) {
        try (ResultSet rs = s.executeQuery("SELECT " + sql.dialect.now)) {
          rs.next();
          if (rs.getLong(1) > millis) {
            return;
          }
        }
        Thread.sleep(20);
      }
    }
  }
}
