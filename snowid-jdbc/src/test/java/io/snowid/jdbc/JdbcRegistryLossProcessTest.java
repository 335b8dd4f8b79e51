package io.snowid.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.Layout;
import io.snowid.testkit.HolderJvm;
import io.snowid.testkit.TcpCut;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A lease table that loses its state under a live holder A (a real JVM), on a private PostgreSQL
 * and a private MariaDB: restored from a dump taken longer than maxTtl before (A cut off from the
 * database), truncated, or A's own row deleted (A still connected, its link held until B leased:
 * A's renewal then finds B's row and fences). The newcomer B (another JVM), started right after the
 * loss, takes A's node id and must start after everything A issued, and after the bound
 * docs/design.md ("A registry that lost its state") gives: {@code lostAt + maxTtl + maxSkew + 1 s},
 * {@code lostAt} the instant the loss was complete, which the registry finds no earlier. A loss the
 * coordinator missed lets B start at once, before that bound: the test fails then.
 */
@Tag("integration")
class JdbcRegistryLossProcessTest {
  private static final String TABLE = "snowid_lost";
  private static final String NAMESPACE = "lost";
  private static final long MAX_TTL = 8_000;
  private static final long MAX_SKEW = 1_000;
  private static final long SLACK = 1_000; // LeaseLimits.SLACK

  /** The holders' options: A renews every ttl/2, so a renewal it misses still leaves it issuing. */
  private static final String OPTIONS =
      "&table=" + TABLE + "&namespace=" + NAMESPACE + "&ttl=8s&renew=4s&maxTtl=8s&maxSkew=1s";

  @TempDir Path dir;

  /** The private servers. */
  enum Server {
    POSTGRESQL("PostgreSQL") {
      @Override
      PrivateDatabase create() throws Exception {
        return PrivatePostgres.create();
      }
    },
    MARIADB("MariaDB") {
      @Override
      PrivateDatabase create() throws Exception {
        return PrivateMariaDb.create();
      }
    };

    private final String name;

    Server(String name) {
      this.name = name;
    }

    abstract PrivateDatabase create() throws Exception;

    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Server> servers() {
    return Stream.of(Server.values());
  }

  /**
   * A dump taken while A renews, restored (the table dropped and loaded) more than maxTtl later,
   * with A cut off from the database right after a renewal and the server killed and started again:
   * the restored rows show A's lease long expired. B's acquisition finds no write within maxTtl.
   */
  @ParameterizedTest(name = "private {0}")
  @MethodSource("servers")
  void nextId_tableRestoredFromAnOlderDump_newcomerStartsAfterTheOldHolder(Server server)
      throws Exception {
    run(
        "restored from an older dump",
        server,
        (db, link) -> {
          Path dump = db.dump(TABLE);
          Thread.sleep(MAX_TTL + 2_000); // A renews on; the dump grows older than a lease
          IdRow row = awaitRenewalOfA(db);
          long began = System.currentTimeMillis();
          link.cut(); // A can no longer renew: it issues on until its deadline
          db.stopImmediately();
          db.start();
          db.restore(TABLE, dump);
          return new Fault(row, began, System.currentTimeMillis());
        });
  }

  /**
   * {@code TRUNCATE} of the whole table, A connected: B finds no registry row, A's renewal finds
   * B's row before its expiry and fences.
   */
  @ParameterizedTest(name = "private {0}")
  @MethodSource("servers")
  void nextId_tableTruncatedUnderALiveHolder_newcomerStartsAfterTheOldHolder(Server server)
      throws Exception {
    run(
        "truncated",
        server,
        (db, link) -> rightAfterARenewalOfA(db, link, "TRUNCATE TABLE " + TABLE));
  }

  /**
   * {@code DELETE} of A's row alone, A connected: B finds fewer id rows than the namespace's
   * id_rows, A's renewal finds B's row before its expiry and fences.
   */
  @ParameterizedTest(name = "private {0}")
  @MethodSource("servers")
  void nextId_holdersRowDeletedUnderALiveHolder_newcomerStartsAfterTheOldHolder(Server server)
      throws Exception {
    run(
        "A's row deleted",
        server,
        (db, link) ->
            rightAfterARenewalOfA(
                db, link, "DELETE FROM " + TABLE + " WHERE namespace = ? AND node_id = ?"));
  }

  /**
   * A's id row (its namespace key: the namespace and the layout's ID space), when a fault began (A
   * live and issuing) and when the table's state was lost for good: newcomers must start after
   * {@code lostAt + maxTtl + maxSkew + 1 s}.
   */
  record Fault(IdRow row, long began, long lostAt) {}

  /** Breaks the table under A, whose lease is live; returns when the state is lost. */
  interface Inflict {
    Fault on(PrivateDatabase db, TcpCut link) throws Exception;
  }

  /**
   * A leases through a link that can be cut or held, in a table in service; {@code inflict} breaks
   * the table; B leases directly right after, and only then is A's link released. B must take A's
   * node id, start after the bound and after A's last ID there; A must have issued after B leased
   * (where B would have started had the loss gone unnoticed), so the fault fell in A's lease.
   */
  private void run(String name, Server server, Inflict inflict) throws Exception {
    try (PrivateDatabase db = server.create()) {
      String url = db.url();
      JdbcLeaseCoordinator.open(url + "&table=" + TABLE + "&create=true").close();
      putInService(url);
      try (TcpCut link = new TcpCut(db.port());
          HolderJvm a =
              HolderJvm.start(
                  url.replace(":" + db.port() + "/", ":" + link.port() + "/") + OPTIONS,
                  dir,
                  "a")) {
        a.await("ready", 0, Duration.ofMinutes(2));
        // B's JVM is up before the fault, and A cannot renew until B leased: had A found its row
        // gone first, it would have leased its node id again, and B another one
        try (HolderJvm b = HolderJvm.startOnGo(url + OPTIONS, dir, "b")) {
          b.await("waiting", 0, Duration.ofMinutes(2));
          Fault fault = inflict.on(db, link);
          b.go();
          awaitAcquisitionSince(db, fault);
          link.release();
          b.await("ready", 0, Duration.ofMinutes(2));
          a.await("fenced", 0, Duration.ofMinutes(1));
          Thread.sleep(300);
          a.stop();
          b.stop();

          long bound = fault.lostAt() + MAX_TTL + MAX_SKEW + SLACK;
          long leasedByB = acquiredAt(db, fault.row());
          System.out.printf(
              "%s, node id %d of %s on a private %s: from the fault's start, lost at +%d ms, B"
                  + " leased at +%d ms, bound +%d ms, B's first ID +%d ms%n",
              name,
              fault.row().nodeId(),
              fault.row().namespace(),
              server,
              fault.lostAt() - fault.began(),
              leasedByB - fault.began(),
              bound - fault.began(),
              firstIdTime(b) - fault.began());
          long lastOfA = a.assertNewcomerStartedAfter(b, bound);
          System.out.printf("  A's last ID there +%d ms%n", lastOfA - fault.began());
          assertThat(lastOfA)
              .as(
                  "A's last ID time, after B leased its node id: the fault fell in A's lease (B"
                      + " leased at +%d ms; later than A's deadline, the machine was too slow for"
                      + " the test)",
                  leasedByB - fault.began())
              .isGreaterThan(leasedByB);
        }
      }
    }
  }

  /** A table in service: its registry row, and a write by another namespace just now. */
  private static void putInService(String url) throws SQLException {
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

  /** A's id row: its namespace key and node id, and when it was last renewed. */
  record IdRow(String namespace, long nodeId, long renewedAt) {}

  /**
   * Waits for a renewal of A (its row's {@code renewed_at} changes), so that what follows comes a
   * whole renewal period (ttl/3) before A's next one; returns A's row.
   */
  private static IdRow awaitRenewalOfA(PrivateDatabase db)
      throws SQLException, InterruptedException {
    try (Connection c = DriverManager.getConnection(db.url())) {
      return awaitRenewalOfA(c);
    }
  }

  private static IdRow awaitRenewalOfA(Connection c) throws SQLException, InterruptedException {
    IdRow first = idRowOfA(c);
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (true) {
      IdRow now = idRowOfA(c);
      if (now.renewedAt() != first.renewedAt()) {
        return now;
      }
      assertThat(System.nanoTime()).as("A renewed within 30 s").isLessThan(deadline);
      Thread.sleep(5);
    }
  }

  /**
   * Holds A's link right after a renewal of A and runs {@code sql} (with A's namespace key and node
   * id as its parameters, if it has any): A issues on, from a lease it cannot renew until the
   * release.
   */
  private static Fault rightAfterARenewalOfA(PrivateDatabase db, TcpCut link, String sql)
      throws SQLException, InterruptedException {
    try (Connection c = DriverManager.getConnection(db.url())) {
      IdRow row = awaitRenewalOfA(c);
      link.hold();
      try (PreparedStatement s = c.prepareStatement(sql)) {
        if (sql.contains("?")) {
          s.setString(1, row.namespace());
          s.setLong(2, row.nodeId());
        }
        long began = System.currentTimeMillis();
        s.executeUpdate();
        if (sql.contains("?")) {
          assertThat(s.getUpdateCount()).as("rows deleted: A's").isEqualTo(1);
        }
        return new Fault(row, began, System.currentTimeMillis());
      }
    }
  }

  private static IdRow idRowOfA(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT namespace, node_id, renewed_at FROM "
                    + TABLE
                    + " WHERE namespace LIKE '"
                    + NAMESPACE
                    + ".%' AND node_id >= 0")) {
      assertThat(rs.next()).as("A's id row").isTrue();
      IdRow row = new IdRow(rs.getString(1), rs.getLong(2), rs.getLong(3));
      assertThat(rs.next()).as("one id row in A's namespace").isFalse();
      return row;
    }
  }

  /** Waits until A's node id was acquired after the fault began: by B, A's link cut or held. */
  private static void awaitAcquisitionSince(PrivateDatabase db, Fault fault)
      throws SQLException, InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (acquiredAt(db, fault.row()) < fault.began()) {
      assertThat(System.nanoTime()).as("B leased within 2 min").isLessThan(deadline);
      Thread.sleep(5);
    }
  }

  /**
   * When the last acquisition of A's node id was, by the database's clock: B's; 0 while it has no
   * row.
   */
  private static long acquiredAt(PrivateDatabase db, IdRow row) throws SQLException {
    try (Connection c = DriverManager.getConnection(db.url());
        PreparedStatement s =
            c.prepareStatement(
                "SELECT acquired_at FROM " + TABLE + " WHERE namespace = ? AND node_id = ?")) {
      s.setString(1, row.namespace());
      s.setLong(2, row.nodeId());
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? rs.getLong(1) : 0;
      }
    }
  }

  private static long firstIdTime(HolderJvm holder) throws IOException {
    return Arrays.stream(holder.ids())
        .filter(id -> id >= 0)
        .map(id -> Layout.twitter().decode(id).timestampMillis())
        .findFirst()
        .orElseThrow();
  }
}
