package io.snowid.jdbc;

import io.snowid.InvalidSettingException;
import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseInfo;
import io.snowid.lease.LeaseListing;
import io.snowid.lease.LeaseTakenException;
import io.snowid.lease.LeaseTerms;
import io.snowid.node.NodeIdUnavailableException;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * Leases node ids in a SQL table: one short transaction per acquisition, one statement per renewal
 * and release, every expiry judged by the database's clock.
 */
final class JdbcLeaseCoordinator implements LeaseCoordinator {
  /*
   * Rationale.
   *
   * The table. One row per (namespace, node id): the holder's instance and host, its lease token
   * (NULL once released), the expiry (database clock), the high-water mark and the prior one (the
   * mark the holder started after), and when it was acquired and last renewed (database clock).
   * Besides, one row per namespace with node id -1, which acquisitions lock, and the table's epoch
   * row (namespace '', node id -1): when the table's state began. Rows are never deleted: an id's
   * row is its high-water mark, which must outlive its holders.
   *
   * The database's clock only. Every expiry is written as NOW + ttl and judged as expires_at <=
   * NOW, NOW being the database's clock in SQL (Dialect.now); the holder gets NOW back and
   * LeaseHolder checks it against its own clock (skew) and counts its deadline from before it sent
   * the request, so it stops before the database can hand the id to anyone else whatever the
   * network delay. On PostgreSQL and H2, NOW is the start of the transaction, which began after the
   * request was sent: an expiry can only be late, never early.
   *
   * Acquisition is race-free because the database decides every race:
   *   1. SELECT … FOR UPDATE on the namespace's row: acquisitions of one namespace run one at a
   *      time (a missing row is inserted first, outside the transaction, by a statement that
   *      cannot fail on a duplicate: INSERT … ON CONFLICT DO NOTHING, INSERT IGNORE, MERGE).
   *   2. One query for the candidates, answered inside the database however many ids there are:
   *      the free id this instance acquired last, the lowest free id with a row, the lowest id
   *      without a row (the first gap, one ordered pass over the namespace's rows), with NOW, the
   *      epoch and the count of live leases; each among the ids the request allows (its fixed
   *      bits, mask and match, by the dialect's bit operators), so holders that fix different
   *      node fields contend for the same rows.
   *   3. A conditional UPDATE of the chosen row (still free by NOW?) or an INSERT of a new one (the
   *      primary key refuses a second). A renewal is not serialized with acquisitions: an expired
   *      lease whose holder renews it between 2 and 3 makes the UPDATE change no row; then 2 and 3
   *      run once more (the renewed id is no longer a candidate).
   *   4. What the row holds now (RETURNING; FINAL TABLE on H2; a SELECT in the same transaction on
   *      MariaDB/MySQL), then COMMIT.
   * So an acquisition is a bounded number of statements (5 to 7, 9 in a rare race), never a walk
   * over the ids from the client, and no two transactions can take one id: the loser of a race on
   * the namespace's row waits for the winner's commit and then sees its row as taken. Deadlocks
   * cannot arise: each transaction locks the namespace's row first and then one id's row, and
   * renewals and releases lock one id's row only. The transaction runs at READ COMMITTED on
   * PostgreSQL and H2 whatever the connection's default (Database.readCommitted: under REPEATABLE
   * READ PostgreSQL takes the snapshot before the lock is granted, and the waiters would all fail
   * on the winner's row); a serialization failure, deadlock or unique violation that a race or
   * another program's statements bring is retried after a random pause (Database.call).
   *
   * Renewal and release are one statement each, conditional on (namespace, node id, instance,
   * token). A renewal answers NOW and the expiry: UPDATE … RETURNING on PostgreSQL, SELECT … FROM
   * FINAL TABLE (UPDATE …) on H2, and on MariaDB/MySQL (no RETURNING for UPDATE) the statement sets
   * LAST_INSERT_ID(NOW), which the server sends back with the row count: still one round trip.
   * With a trigger on the table the server sends 0 there instead (any statement of a trigger
   * clears its note that LAST_INSERT_ID(X) was called), and the renewal reads the value with
   * SELECT LAST_INSERT_ID() on the same connection, which a trigger cannot change
   * (Database.Session.updateReturningLastInsertId); a 0 there too fails the renewal as unavailable,
   * never taken as the database's time. A renewal of an expired lease that nobody took since succeeds: the token still names this holder,
   * so no one else can have issued under the id. One that matches no row is a LeaseTakenException;
   * a second query then says why (released, taken by whom, row gone).
   *
   * High-water marks. Before answering, acquire and renew raise the id's mark to the holder's
   * mayIssueUntil; acquire returns the mark before it (prior_high_water), and the new holder starts
   * after it. A release replaces the holder's promise by what it really issued, never below the
   * prior mark.
   *
   * A table that lost its rows. A holder that is still issuing under its deadline has a row; if the
   * rows were deleted (by hand, a TRUNCATE, a table dropped and created again), a newcomer could
   * not know the old holder's mark. As on Redis, an id without a row counts as used until one lease
   * time (plus the default allowed skew of the old holders' clocks) after the epoch row's time, and
   * the epoch row is written when missing: so the first holders of a new table, or of one that lost
   * its rows, wait once, and a new namespace of a table in service does not. The old holder's
   * renewal finds no row and fences at once. The wait is the newcomer's own ttl plus the default
   * skew: an old holder with a longer ttl or a larger skew may issue past it (mixed ttl/skew after a
   * TRUNCATE or DROP is out of reach), and deleting some rows while the epoch row stays defeats it
   * altogether (the epoch is old); both are documented limits: leave the rows alone while
   * holders run (releaseAbandoned is the way to free a dead holder's id).
   *
   * Time bounds. Each statement has a query timeout (the database cancels it, and the connection
   * stays usable) below a bound: an acquisition's ttl/2, a renewal's ttl/5 (LeaseHolder's margin),
   * a release's third of the granted time, in whole seconds (JDBC's unit), at least 1 s: a renewal
   * of a 10 s lease is cancelled after 1 s, one of a 30 s lease after 5 s. A network timeout one
   * second longer catches a database that does not answer at all (the connection is then dropped
   * and the pool replaces it), and snowid's pool waits at most 2 s for a connection. None of this
   * is what fences the holder: its deadline does, whatever a call does. The bounds keep one call
   * from hanging past the next attempt, and keep a fleet that is locked out (a long table lock)
   * from piling up waiting statements in the database.
   */
  private static final System.Logger LOG = System.getLogger("io.snowid.jdbc");

  /**
   * Added to one lease time for an id without a row (see Rationale): LeaseOptions' default allowed
   * skew, because the holders that may still be issuing were checked against it.
   */
  static final long LOSS_SLACK_MILLIS = 1_000;

  private static final Pattern NAMESPACE = Pattern.compile("[A-Za-z0-9._:-]{1,255}");
  private static final int CLAIM_ATTEMPTS = 3;

  private final Database db;
  private final LeaseSql sql;
  private final String host;

  private JdbcLeaseCoordinator(Database db) {
    this.db = db;
    this.sql = new LeaseSql(db.dialect(), db.settings().table());
    this.host = hostName();
  }

  /**
   * Opens a pool for a JDBC URI (without snowid's lease options) and checks the table.
   *
   * @throws InvalidSettingException if the URI is malformed or no driver takes it
   * @throws LeaseTableException if the table is missing (without create=true) or not snowid's
   * @throws NodeIdUnavailableException if the database cannot be reached
   */
  static JdbcLeaseCoordinator open(String uri) {
    return prepared(Database.pool(JdbcSettings.parse(uri)));
  }

  /** A coordinator on an application's DataSource, which it never closes. */
  static JdbcLeaseCoordinator open(DataSource dataSource, String options) {
    return prepared(Database.of(dataSource, JdbcSettings.forDataSource(options)));
  }

  private static JdbcLeaseCoordinator prepared(Database db) {
    JdbcLeaseCoordinator c = new JdbcLeaseCoordinator(db);
    try {
      LeaseTable.prepare(db, c.sql);
    } catch (RuntimeException e) {
      db.close();
      throw e;
    }
    return c;
  }

  private static String hostName() {
    String host = System.getenv("HOSTNAME");
    if (host == null || host.isBlank()) {
      try {
        host = InetAddress.getLocalHost().getHostName();
      } catch (UnknownHostException e) {
        host = "localhost";
      }
    }
    return host.length() > 255 ? host.substring(0, 255) : host;
  }

  private static String checked(String namespace) {
    if (namespace == null || !NAMESPACE.matcher(namespace).matches()) {
      throw new InvalidSettingException("namespace", namespace, "1 to 255 of A-Z a-z 0-9 . _ : -");
    }
    return namespace;
  }

  /** What an acquisition or renewal found, before it becomes a {@link Lease}. */
  private record Granted(long nodeId, long now, long expiresAt, long prior, boolean fresh) {}

  /** The answer of the candidate query. */
  private record Candidates(
      long now, Long epoch, Long last, Long lowestFree, Long lowestNew, long held) {
    /** The id to take: the instance's last one if free, else the lowest free; null if none. */
    Long choice() {
      if (last != null) {
        return last;
      }
      if (lowestFree == null) {
        return lowestNew;
      }
      return lowestNew == null ? lowestFree : Math.min(lowestFree, lowestNew);
    }
  }

  @Override
  public Lease acquire(AcquireRequest request) {
    String namespace = checked(request.namespace());
    LeaseTerms terms = request.terms();
    long ttl = terms.ttl().toMillis();
    String token = UUID.randomUUID().toString();
    Granted g =
        db.call("acquisition", ttl / 2, true, s -> acquireIn(s, request, namespace, token, ttl));
    if (g == null) { // the namespace had no row yet: insert it, then acquire
      db.call(
          "acquisition",
          ttl / 2,
          false,
          s -> {
            LeaseTable.insertNamespaceRow(s, sql, namespace);
            return null;
          });
      g = db.call("acquisition", ttl / 2, true, s -> acquireIn(s, request, namespace, token, ttl));
      if (g == null) {
        throw new NodeIdUnavailableException(
            "the row of namespace " + namespace + " in " + describe() + " vanished; try again");
      }
    }
    if (g.fresh()) {
      LOG.log(
          Level.INFO,
          "{0} of {1} has no epoch row or a recent one (a new table, or one that lost its rows):"
              + " node id {2} of namespace {3} starts after {4}, one lease time after the table''s"
              + " state began",
          sql.table,
          describe(),
          g.nodeId(),
          namespace,
          Instant.ofEpochMilli(g.prior()));
    }
    return new Lease(
        namespace, g.nodeId(), request.instance(), token, g.now(), g.expiresAt(), g.prior());
  }

  /** The acquisition transaction (see Rationale); null if the namespace has no row yet. */
  private Granted acquireIn(
      Database.Session s, AcquireRequest request, String namespace, String token, long ttl)
      throws SQLException {
    if (s.queryOne(sql.lockNamespace, rs -> rs.getLong(1), namespace) == null) {
      return null;
    }
    long top = request.size() - 1;
    long mask = request.mask();
    long match = request.match();
    long inv = ~mask & top;
    long promise = request.terms().mayIssueUntilMillis();
    for (int attempt = 1; ; attempt++) {
      Candidates c =
          s.queryOne(
              sql.candidates,
              rs ->
                  new Candidates(
                      rs.getLong(1),
                      Database.longOrNull(rs, 2),
                      Database.longOrNull(rs, 3),
                      Database.longOrNull(rs, 4),
                      Database.longOrNull(rs, 5),
                      rs.getLong(6)),
              namespace,
              request.instance(),
              top,
              mask,
              match,
              namespace,
              top,
              mask,
              match,
              inv,
              mask + 1,
              inv,
              match,
              namespace,
              top,
              mask,
              match,
              namespace,
              top,
              mask,
              match);
      Long id = c.choice();
      if (id == null) {
        throw new NodeIdUnavailableException(
            "all "
                + request.count()
                + " node ids of namespace "
                + namespace
                + (mask == 0
                    ? ""
                    : " whose fixed bits match (mask "
                        + mask
                        + ", match "
                        + match
                        + ", of "
                        + request.size()
                        + ")")
                + " on "
                + describe()
                + " are held ("
                + c.held()
                + " live leases)");
      }
      if (id.equals(c.lowestNew())) { // an id without a row (the others have one)
        return insertNew(s, request, namespace, token, ttl, id, c);
      }
      Granted g = claim(s, request, namespace, token, ttl, id, promise);
      if (g != null) {
        return g;
      }
      if (attempt == CLAIM_ATTEMPTS) {
        throw new NodeIdUnavailableException(
            "node id "
                + id
                + " of namespace "
                + namespace
                + " on "
                + describe()
                + " was renewed by its holder as it was being taken, "
                + CLAIM_ATTEMPTS
                + " times; try again");
      }
    }
  }

  /** Takes a free id's row; null if it is no longer free (its holder renewed it meanwhile). */
  private Granted claim(
      Database.Session s,
      AcquireRequest request,
      String namespace,
      String token,
      long ttl,
      long id,
      long promise)
      throws SQLException {
    Object[] args = {request.instance(), host, token, promise, promise, ttl, namespace, id};
    String returning = sql.dialect.returning(sql.claim, LeaseSql.ACQUIRED);
    if (returning != null) {
      return s.queryOne(
          returning, rs -> granted(id, rs.getLong(1), rs.getLong(2), rs, false), args);
    }
    if (s.update(sql.claim, args) == 0) {
      return null;
    }
    return readBack(s, namespace, id, false);
  }

  /** Takes an id without a row: it counts as used until one lease time after the epoch. */
  private Granted insertNew(
      Database.Session s,
      AcquireRequest request,
      String namespace,
      String token,
      long ttl,
      long id,
      Candidates c)
      throws SQLException {
    Long epoch = c.epoch();
    if (epoch == null) { // the epoch row was deleted: the table's state begins now
      LeaseTable.insertNamespaceRow(s, sql, "");
      epoch = s.queryOne(sql.epoch, rs -> rs.getLong(1));
      if (epoch == null) {
        throw new NodeIdUnavailableException(
            "the epoch row of " + sql.table + " on " + describe() + " vanished; try again");
      }
    }
    long prior = epoch + ttl + LOSS_SLACK_MILLIS;
    boolean fresh = prior > c.now();
    long highWater = Math.max(prior, request.terms().mayIssueUntilMillis());
    Object[] args = {namespace, id, request.instance(), host, token, ttl, highWater, prior};
    String returning = sql.dialect.returning(sql.insert, LeaseSql.ACQUIRED);
    if (returning != null) {
      return s.queryOne(
          returning, rs -> granted(id, rs.getLong(1), rs.getLong(2), rs, fresh), args);
    }
    s.update(sql.insert, args);
    return readBack(s, namespace, id, fresh);
  }

  private Granted readBack(Database.Session s, String namespace, long id, boolean fresh)
      throws SQLException {
    return s.queryOne(
        sql.readBack, rs -> granted(id, rs.getLong(1), rs.getLong(2), rs, fresh), namespace, id);
  }

  private static Granted granted(long id, long now, long expiresAt, ResultSet rs, boolean fresh)
      throws SQLException {
    Long prior = Database.longOrNull(rs, 3);
    return new Granted(id, now, expiresAt, prior == null ? Long.MIN_VALUE : prior, fresh);
  }

  @Override
  public Lease renew(Lease lease, LeaseTerms terms) {
    long ttl = terms.ttl().toMillis();
    long promise = terms.mayIssueUntilMillis();
    Object[] args = {
      ttl, promise, promise, lease.namespace(), lease.nodeId(), lease.instance(), lease.token()
    };
    long[] answer =
        db.call(
            "renewal",
            ttl / 5,
            false,
            s -> {
              String returning = sql.dialect.returning(sql.renew, LeaseSql.RENEWED);
              if (returning != null) {
                long[] row =
                    s.queryOne(returning, rs -> new long[] {rs.getLong(1), rs.getLong(2)}, args);
                return row != null ? row : whyNot(s, lease);
              }
              long[] r = s.updateReturningLastInsertId(sql.renew, args);
              if (r[0] == 0) {
                return whyNot(s, lease);
              }
              if (r[1] <= 0) { // never the database's clock: never taken as its time
                throw new NodeIdUnavailableException(
                    "renewal on "
                        + describe()
                        + " changed the lease's row but the database's clock could not be read"
                        + " back (LAST_INSERT_ID() is "
                        + r[1]
                        + ")");
              }
              return new long[] {r[1], r[1] + ttl};
            });
    return new Lease(
        lease.namespace(),
        lease.nodeId(),
        lease.instance(),
        lease.token(),
        answer[0],
        answer[1],
        lease.highWaterMillis());
  }

  /** Why a renewal matched no row: always throws. */
  private long[] whyNot(Database.Session s, Lease lease) throws SQLException {
    String why =
        s.queryOne(
            sql.holder,
            rs -> {
              String token = rs.getString(3);
              if (token == null) {
                return "released (by an operator, or by a release of this holder)";
              }
              // taken after this lease expired, or after its row was deleted: a row alone
              // cannot tell which
              return "taken by instance "
                  + rs.getString(1)
                  + " on host "
                  + rs.getString(2)
                  + " (after this lease expired or its row was deleted; the new lease runs until "
                  + Instant.ofEpochMilli(rs.getLong(4))
                  + " by the database's clock)";
            },
            lease.namespace(),
            lease.nodeId());
    throw new LeaseTakenException(
        lease.namespace(),
        lease.nodeId(),
        why != null
            ? why
            : "its row in " + sql.table + " on " + describe() + " is gone (deleted by hand?)");
  }

  @Override
  public void release(Lease lease, long issuedUpToMillis) {
    long granted = lease.expiresAtMillis() - lease.coordinatorNowMillis();
    db.call(
        "release",
        granted / 3,
        false,
        s ->
            issuedUpToMillis == Long.MIN_VALUE
                ? s.update(
                    sql.releaseKeepingPrior,
                    lease.namespace(),
                    lease.nodeId(),
                    lease.instance(),
                    lease.token())
                : s.update(
                    sql.release,
                    issuedUpToMillis,
                    issuedUpToMillis,
                    lease.namespace(),
                    lease.nodeId(),
                    lease.instance(),
                    lease.token()));
  }

  /** A lease's state, judged by the database's clock. */
  enum State {
    /** A holder has it and it has not expired. */
    HELD,
    /** A holder had it and did not renew it in time; anyone may take it. */
    EXPIRED,
    /** Its last holder released it (or an operator released it for a dead holder). */
    RELEASED
  }

  /**
   * One id's row, for operators: who holds it, until when, its high-water mark.
   *
   * @param nodeId the id
   * @param instance the instance that holds it or held it last
   * @param host that instance's host
   * @param state held, expired or released, by the database's clock
   * @param expiresAtMillis when the lease expires or expired (database clock); {@link
   *     Long#MIN_VALUE} once released
   * @param highWaterMillis the id's high-water mark (ID time); {@link Long#MIN_VALUE} if none
   * @param databaseNowMillis the database's clock when it answered
   */
  record Row(
      long nodeId,
      String instance,
      String host,
      State state,
      long expiresAtMillis,
      long highWaterMillis,
      long databaseNowMillis) {}

  /** Every id's row of a namespace (as acquisitions name it: the namespace key), by id. */
  List<Row> listRows(String namespace) {
    String ns = checked(namespace);
    return db.call(
        "the listing",
        5_000,
        false,
        s ->
            s.queryAll(
                sql.list,
                rs -> {
                  Long expires = Database.longOrNull(rs, 5);
                  Long highWater = Database.longOrNull(rs, 6);
                  long now = rs.getLong(7);
                  State state =
                      rs.getString(4) == null
                          ? State.RELEASED
                          : expires != null && expires > now ? State.HELD : State.EXPIRED;
                  return new Row(
                      rs.getLong(1),
                      rs.getString(2),
                      rs.getString(3),
                      state,
                      expires == null || state == State.RELEASED ? Long.MIN_VALUE : expires,
                      highWater == null ? Long.MIN_VALUE : highWater,
                      now);
                },
                ns));
  }

  /**
   * Releases a dead holder's lease, keeping its high-water mark, so that the id is free at once
   * instead of when it expires. Only an expired lease (by the database's clock) is released; one
   * already released is left as it is.
   *
   * @throws LeaseTakenException if a holder holds the id and its lease has not expired: the message
   *     names the holder and the expiry An id without a row is left alone too.
   */
  void releaseAbandonedRow(String namespace, long nodeId) {
    String ns = checked(namespace);
    db.call(
        "the release of an abandoned lease",
        5_000,
        false,
        s -> {
          if (s.update(sql.releaseExpired, ns, nodeId) == 1) {
            return null;
          }
          String refusal =
              s.queryOne(
                  sql.holder,
                  rs ->
                      rs.getString(3) == null
                          ? ""
                          : "held by instance "
                              + rs.getString(1)
                              + " on host "
                              + rs.getString(2)
                              + " until "
                              + Instant.ofEpochMilli(rs.getLong(4))
                              + " (the database's clock reads "
                              + Instant.ofEpochMilli(rs.getLong(5))
                              + "); a lease is released for its holder only once it expired",
                  ns,
                  nodeId);
          if (refusal == null) {
            return null; // no row: nothing to release
          }
          if (!refusal.isEmpty()) {
            throw new LeaseTakenException(ns, nodeId, refusal);
          }
          return null; // released already
        });
  }

  @Override
  public LeaseListing list(String namespace) {
    List<Row> rows = listRows(namespace);
    long now =
        rows.isEmpty()
            ? db.call("the clock", 5_000, false, s -> s.queryOne(sql.clock, rs -> rs.getLong(1)))
            : rows.get(0).databaseNowMillis();
    List<LeaseInfo> leases = new ArrayList<>(rows.size());
    for (Row r : rows) {
      leases.add(
          new LeaseInfo(
              namespace,
              r.nodeId(),
              r.instance(),
              r.host() == null ? "" : r.host(),
              LeaseInfo.State.valueOf(r.state().name()),
              r.expiresAtMillis(),
              r.highWaterMillis()));
    }
    return new LeaseListing(now, leases);
  }

  @Override
  public List<String> namespaces() {
    return db.call(
        "the namespaces", 5_000, false, s -> s.queryAll(sql.namespaces, rs -> rs.getString(1)));
  }

  @Override
  public void releaseAbandoned(String namespace, long nodeId) {
    releaseAbandonedRow(namespace, nodeId);
  }

  @Override
  public String describe() {
    return db.describe();
  }

  /** Statements sent so far, commits included; for tests and measurements. */
  long statements() {
    return db.statements();
  }

  /**
   * Closes the pool snowid made (an application's DataSource is left open), without releasing
   * anything: leases still held expire by themselves.
   */
  @Override
  public void close() {
    db.close();
  }
}
