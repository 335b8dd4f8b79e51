package io.snowid.jdbc;

import io.snowid.Durations;
import io.snowid.InvalidSettingException;
import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseInfo;
import io.snowid.lease.LeaseLimits;
import io.snowid.lease.LeaseListing;
import io.snowid.lease.LeaseTakenException;
import io.snowid.lease.LeaseTerms;
import io.snowid.lease.LeaseTermsException;
import io.snowid.lease.NamespaceState;
import io.snowid.node.NodeIdUnavailableException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * Leases node ids in a SQL table: one short transaction per acquisition, one statement per renewal
 * and release, every expiry judged by the database's clock.
 *
 * <p>Longer than ~500 lines because an acquisition is one transaction (read the namespace's terms
 * and rows, judge them, claim or insert, record the marks) that reads best in one place; the SQL of
 * each dialect is in {@link LeaseSql}, connections in {@link Database}, the rules in
 * docs/design.md, section "The {@code jdbc:} backend".
 */
final class JdbcLeaseCoordinator implements LeaseCoordinator {
  /*
   * The rationale is docs/design.md, section 4, "The jdbc: backend": the rows (never deleted: an
   * id's row keeps its high-water mark), every expiry by the database's clock, why an acquisition
   * is race-free, renewal and release in one conditional statement each, the loss rule, and each
   * statement's time bound.
   */

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

  /**
   * What an acquisition found, before it becomes a {@link Lease}; loss: why it waits out a loss, or
   * null.
   */
  private record Granted(long nodeId, long now, long expiresAt, long prior, String loss) {
    Granted after(Judgment j) {
      return new Granted(nodeId, now, expiresAt, prior, j.loss());
    }
  }

  /** The namespace's state, from its row (node id -1); null columns where none is recorded. */
  private record Namespace(Long maxTtl, Long maxSkew, Long idRows, Long lostUntil) {}

  /** The answer of the candidate query. */
  private record Candidates(
      long now,
      Long last,
      Long lowestFree,
      Long lowestNew,
      long held,
      long idRows,
      Long newest,
      long live,
      Long tableNewest,
      long registryRows,
      Long registryLostAt,
      Long registryMaxTtl,
      boolean remembered) {
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

  /**
   * What an acquisition makes of the namespace's state: why it was found lost (null if trusted),
   * the state to keep, and whether it differs from the recorded one.
   */
  private record Judgment(
      String loss, long maxTtl, long maxSkew, long idRows, Long lostUntil, boolean changed) {}

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
    String startReason =
        g.loss() == null
            ? ""
            : "namespace "
                + namespace
                + " in "
                + sql.table
                + " of "
                + describe()
                + ": "
                + g.loss()
                + "; so that no holder the table forgot may still issue, its ids start after maxTtl"
                + " + maxSkew + 1s";
    return new Lease(
        namespace,
        g.nodeId(),
        request.instance(),
        token,
        g.now(),
        g.expiresAt(),
        g.prior(),
        startReason);
  }

  /**
   * The acquisition transaction (docs/design.md, "Why acquisition is race-free"); null if the
   * namespace has no row yet.
   */
  private Granted acquireIn(
      Database.Session s, AcquireRequest request, String namespace, String token, long ttl)
      throws SQLException {
    Namespace state =
        s.queryOne(
            sql.lockNamespace,
            rs ->
                new Namespace(
                    Database.longOrNull(rs, 1),
                    Database.longOrNull(rs, 2),
                    Database.longOrNull(rs, 3),
                    Database.longOrNull(rs, 4)),
            namespace);
    if (state == null) {
      return null;
    }
    long top = request.size() - 1;
    long mask = request.mask();
    long match = request.match();
    long inv = ~mask & top;
    long promise = request.terms().mayIssueUntilMillis();
    Judgment j = null;
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
                      rs.getLong(5),
                      rs.getLong(6),
                      Database.longOrNull(rs, 7),
                      rs.getLong(8),
                      Database.longOrNull(rs, 9),
                      rs.getLong(10),
                      Database.longOrNull(rs, 11),
                      Database.longOrNull(rs, 12),
                      rs.getLong(13) > 0),
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
              match,
              LeaseSql.createdRow(namespace),
              namespace);
      if (j == null) {
        j = judge(s, namespace, request, state, c);
      }
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
        Granted g = insertNew(s, request, namespace, token, ttl, id, j.lostUntil());
        save(s, namespace, j, j.idRows() + 1);
        return g.after(j);
      }
      Granted g = claim(s, request, namespace, token, ttl, id, promise, j.lostUntil());
      if (g != null) {
        if (j.changed()) {
          save(s, namespace, j, j.idRows());
        }
        return g.after(j);
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

  /**
   * Whether the namespace's state can be trusted (docs/design.md, "The jdbc: backend"), and what it
   * becomes: after a loss, lost_until covers every holder the table may have forgotten.
   *
   * @throws LeaseTermsException if the state is trusted, the request's limits differ from the
   *     recorded ones and the namespace has live leases
   */
  private Judgment judge(
      Database.Session s, String namespace, AcquireRequest request, Namespace st, Candidates c)
      throws SQLException {
    long now = c.now();
    LeaseLimits asked = request.limits();
    long askedTtl = asked.maxTtl().toMillis();
    long askedSkew = asked.maxSkew().toMillis();
    long recordedRows = st.idRows() == null ? 0 : st.idRows();
    boolean limits = st.maxTtl() != null && st.maxSkew() != null;
    boolean same = limits && st.maxTtl() == askedTtl && st.maxSkew() == askedSkew;
    if (!same && limits && c.live() > 0) { // even in a state that may be stale: refusing is safe
      throw new LeaseTermsException(
          namespace,
          describe(),
          new LeaseLimits(Duration.ofMillis(st.maxTtl()), Duration.ofMillis(st.maxSkew())),
          c.live(),
          asked);
    }
    // the table is idle when no holder wrote for the longest maxTtl any holder of it asked before
    // (this one's for a table without such a record)
    long tableTtl = c.registryMaxTtl() == null ? askedTtl : c.registryMaxTtl();
    long since = now;
    String loss = null;
    boolean tableLost = true; // a loss of the table's state, not only of this namespace's
    if (c.registryRows() == 0) {
      loss = "the table has no registry row (a new table, or one truncated or dropped and created)";
    } else if (c.idRows() == 0 && recordedRows == 0) { // a namespace without id rows: by the table
      if (c.tableNewest() == null) {
        loss = "the table has no id rows (a new table, or one truncated or dropped and created)";
      } else if (now - c.tableNewest() > tableTtl) {
        loss =
            "no write to the table for "
                + Durations.format(Duration.ofMillis(now - c.tableNewest()))
                + ", more than maxTtl (idle, or restored from an older backup)";
      } else if (c.remembered()) {
        loss = "it has no rows though the table created it (its rows deleted?)";
        tableLost = false;
      }
    } else if (!limits) {
      loss = "its id rows have no recorded state (its namespace row deleted?)";
      tableLost = false;
    } else if (c.idRows() < recordedRows) {
      loss = "id rows are missing (" + c.idRows() + " of " + recordedRows + ": deleted?)";
      tableLost = false;
    } else if (c.newest() == null || now - c.newest() > st.maxTtl()) {
      loss =
          "no write to the namespace for "
              + (c.newest() == null
                  ? "ever"
                  : Durations.format(Duration.ofMillis(now - c.newest())))
              + ", more than its maxTtl (idle, or restored from an older backup)";
      // idle alone, or the whole table restored: then every namespace's holders were forgotten
      Long others = s.queryOne(sql.othersNewest, rs -> Database.longOrNull(rs, 1), namespace);
      tableLost = others == null || now - others > tableTtl;
    }
    if (loss != null && tableLost) {
      LeaseTable.insertNamespaceRow(s, sql, "");
      s.update(sql.registryLost, since);
    }
    if (c.registryMaxTtl() == null || c.registryMaxTtl() < askedTtl) {
      s.update(sql.registryMaxTtl, askedTtl, askedTtl);
    }
    if (!c.remembered()) { // its first acquisition, or one of a table without the memory
      s.update(sql.rememberNamespace, LeaseSql.createdRow(namespace), namespace);
    }
    long lt = Math.max(askedTtl, st.maxTtl() == null ? 0 : st.maxTtl());
    long ls = Math.max(askedSkew, st.maxSkew() == null ? 0 : st.maxSkew());
    long slack = LeaseLimits.SLACK.toMillis();
    if (loss == null && c.registryLostAt() != null && c.registryLostAt() + lt + ls + slack > now) {
      loss =
          "a loss of the table's state was found "
              + Durations.format(Duration.ofMillis(now - c.registryLostAt()))
              + " ago (holders of any namespace may have been forgotten)";
      since = c.registryLostAt();
    }
    if (loss == null) {
      return new Judgment(null, askedTtl, askedSkew, recordedRows, st.lostUntil(), !same);
    }
    long bound = since + lt + ls + slack;
    long lostUntil = st.lostUntil() == null ? bound : Math.max(st.lostUntil(), bound);
    return new Judgment(loss, askedTtl, askedSkew, c.idRows(), lostUntil, true);
  }

  private void save(Database.Session s, String namespace, Judgment j, long idRows)
      throws SQLException {
    s.update(sql.saveNamespace, j.maxTtl(), j.maxSkew(), idRows, j.lostUntil(), namespace);
  }

  /** Takes a free id's row; null if it is no longer free (its holder renewed it meanwhile). */
  private Granted claim(
      Database.Session s,
      AcquireRequest request,
      String namespace,
      String token,
      long ttl,
      long id,
      long promise,
      Long lostUntil)
      throws SQLException {
    long floor = lostUntil == null ? promise : Math.max(promise, lostUntil);
    Object[] args = {
      request.instance(), host, token, lostUntil, lostUntil, floor, floor, ttl, namespace, id
    };
    String returning = sql.dialect.returning(sql.claim, LeaseSql.ACQUIRED);
    if (returning != null) {
      return s.queryOne(returning, rs -> granted(id, rs.getLong(1), rs.getLong(2), rs), args);
    }
    if (s.update(sql.claim, args) == 0) {
      return null;
    }
    return readBack(s, namespace, id);
  }

  /** Takes an id without a row: it starts after lostUntil, if any. */
  private Granted insertNew(
      Database.Session s,
      AcquireRequest request,
      String namespace,
      String token,
      long ttl,
      long id,
      Long lostUntil)
      throws SQLException {
    long promise = request.terms().mayIssueUntilMillis();
    long highWater = lostUntil == null ? promise : Math.max(lostUntil, promise);
    Object[] args = {namespace, id, request.instance(), host, token, ttl, highWater, lostUntil};
    String returning = sql.dialect.returning(sql.insert, LeaseSql.ACQUIRED);
    if (returning != null) {
      return s.queryOne(returning, rs -> granted(id, rs.getLong(1), rs.getLong(2), rs), args);
    }
    s.update(sql.insert, args);
    return readBack(s, namespace, id);
  }

  private Granted readBack(Database.Session s, String namespace, long id) throws SQLException {
    return s.queryOne(
        sql.readBack, rs -> granted(id, rs.getLong(1), rs.getLong(2), rs), namespace, id);
  }

  private static Granted granted(long id, long now, long expiresAt, ResultSet rs)
      throws SQLException {
    Long prior = Database.longOrNull(rs, 3);
    return new Granted(id, now, expiresAt, prior == null ? Long.MIN_VALUE : prior, null);
  }

  @Override
  public Lease renew(Lease lease, LeaseTerms terms) {
    long ttl = terms.ttl().toMillis();
    long promise = terms.mayIssueUntilMillis();
    Object[] args = {
      ttl,
      promise,
      promise,
      lease.namespace(),
      lease.nodeId(),
      lease.instance(),
      lease.token(),
      lease.expiresAtMillis()
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
                return row != null ? row : whyNot(s, lease, promise);
              }
              long[] r = s.updateReturningLastInsertId(sql.renew, args);
              if (r[0] == 0) {
                return whyNot(s, lease, promise);
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

  /**
   * Why a renewal matched no row: always throws. A row that still has this holder's token but an
   * older expiry than the holder last had confirmed went back to an older state: the namespace's
   * lost_until is raised to cover every holder the table may have forgotten, and the row is
   * released keeping this holder's promise, so that it can lease again.
   */
  private long[] whyNot(Database.Session s, Lease lease, long promise) throws SQLException {
    String[] rolledBack = {null};
    String why =
        s.queryOne(
            sql.holder,
            rs -> {
              String token = rs.getString(3);
              if (token == null) {
                return "released (by an operator, or by a release of this holder)";
              }
              if (token.equals(lease.token())) {
                rolledBack[0] = Instant.ofEpochMilli(rs.getLong(4)).toString();
                return null;
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
    if (rolledBack[0] != null) {
      long maxTtl = LeaseLimits.DEFAULT.maxTtl().toMillis();
      long maxSkew = LeaseLimits.DEFAULT.maxSkew().toMillis();
      long slack = LeaseLimits.SLACK.toMillis();
      Long[] limits =
          s.queryOne(
              sql.namespaceLimits,
              rs -> new Long[] {Database.longOrNull(rs, 1), Database.longOrNull(rs, 2)},
              lease.namespace());
      if (limits != null && limits[0] != null && limits[1] != null) {
        maxTtl = limits[0];
        maxSkew = limits[1];
      }
      // The table went back before this holder's write stamped coordinatorNow, which committed
      // within its statement's timeout after the stamp. A loss stamped later than that, by more
      // than maxSkew (a failover's other clock), committed after the write, so in the history that
      // lacks it: its wait covers every holder the table forgot (docs/design.md).
      Long lostAt = s.queryOne(sql.lostUntil, rs -> Database.longOrNull(rs, 1), "");
      long committedBy =
          lease.coordinatorNowMillis()
              + Database.queryTimeoutSeconds(
                      (lease.expiresAtMillis() - lease.coordinatorNowMillis()) / 5)
                  * 1000L;
      Long since = lostAt != null && lostAt > committedBy + maxSkew ? lostAt : null;
      if (since == null) {
        s.update(sql.rollBack, maxTtl, maxSkew, slack, maxTtl, maxSkew, slack, lease.namespace());
        LeaseTable.insertNamespaceRow(s, sql, "");
        Long now = s.queryOne(sql.clock, rs -> rs.getLong(1));
        s.update(sql.registryLost, now);
      }
      s.update(
          sql.releaseRolledBack,
          promise,
          promise,
          lease.namespace(),
          lease.nodeId(),
          lease.instance(),
          lease.token());
      Long lostUntil =
          s.queryOne(sql.lostUntil, rs -> Database.longOrNull(rs, 1), lease.namespace());
      if (since != null) {
        long after = since + maxTtl + maxSkew + slack;
        lostUntil = lostUntil == null ? after : Math.max(lostUntil, after);
      }
      why =
          "its row in "
              + sql.table
              + " on "
              + describe()
              + " went back to an older state (expiry "
              + rolledBack[0]
              + ", this holder had renewed it until "
              + Instant.ofEpochMilli(lease.expiresAtMillis())
              + "): the database was restored from an older backup or failed over to a replica"
              + " behind it; newcomers start after "
              + (lostUntil == null ? "?" : Instant.ofEpochMilli(lostUntil));
    }
    if (why == null) {
      why = "its row in " + sql.table + " on " + describe() + " is gone (deleted by hand?)";
    }
    if (rolledBack[0] == null) {
      // nobody may take, release or delete a lease before its expiry: if that happened, the table
      // lost or went back, and holders of any namespace may have been forgotten
      Long now = s.queryOne(sql.clock, rs -> rs.getLong(1));
      if (now != null && now < lease.expiresAtMillis()) {
        LeaseTable.insertNamespaceRow(s, sql, "");
        s.update(sql.registryLost, now);
        why += " before its expiry: the table lost or went back to an older state";
      }
    }
    throw new LeaseTakenException(lease.namespace(), lease.nodeId(), why);
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
    Optional<NamespaceState> state =
        db.call(
            "the namespace's state",
            5_000,
            false,
            s ->
                s.queryOne(
                    sql.namespaceState,
                    rs -> {
                      Long maxTtl = Database.longOrNull(rs, 1);
                      Long maxSkew = Database.longOrNull(rs, 2);
                      Long newest = Database.longOrNull(rs, 3);
                      Long lostUntil = Database.longOrNull(rs, 4);
                      return maxTtl == null || maxSkew == null || newest == null
                          ? Optional.<NamespaceState>empty()
                          : Optional.of(
                              new NamespaceState(
                                  new LeaseLimits(
                                      Duration.ofMillis(maxTtl), Duration.ofMillis(maxSkew)),
                                  newest,
                                  lostUntil == null ? Long.MIN_VALUE : lostUntil));
                    },
                    namespace,
                    namespace));
    return new LeaseListing(now, leases, state == null ? Optional.empty() : state);
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
