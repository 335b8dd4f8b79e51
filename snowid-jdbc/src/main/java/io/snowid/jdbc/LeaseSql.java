package io.snowid.jdbc;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The statements of the lease table {@code table} in one dialect. Parameters are listed with each;
 * {@code NOW} stands for the dialect's clock ({@link Dialect#now}). See {@link
 * JdbcLeaseCoordinator} for why they are race-free.
 */
final class LeaseSql {
  /** Every column, in the DDL's order: what {@link #check} selects. */
  static final String COLUMNS =
      "namespace, node_id, instance, host, token, expires_at, high_water, prior_high_water,"
          + " acquired_at, renewed_at, max_ttl, max_skew, id_rows, lost_until";

  /** The columns of an id's row, which {@link #insert} writes. */
  static final String ID_COLUMNS =
      "namespace, node_id, instance, host, token, expires_at, high_water, prior_high_water,"
          + " acquired_at, renewed_at";

  final Dialect dialect;
  final String table;

  /** Selects every column and no row: fails when the table or one of its columns is missing. */
  final String check;

  /** (namespace) Inserts the namespace's row (node id -1) unless it exists. */
  final String insertNamespaceRow;

  /**
   * (namespace) Locks the namespace's row until the transaction ends and reads its state: max_ttl,
   * max_skew, id_rows, lost_until; no row if it is missing.
   */
  final String lockNamespace;

  /**
   * (max ttl, max skew, id rows, lost until, namespace) Writes the namespace's state to its row.
   */
  final String saveNamespace;

  /**
   * (namespace, instance, size - 1, mask, match, namespace, size - 1, mask, match, inv, mask + 1,
   * inv, match, namespace, size - 1, mask, match, namespace, size - 1, mask, match, created row,
   * namespace) One row: NOW; the free id the instance acquired last; the lowest free id with a row;
   * the lowest id without a row; the number of live leases among them; then of the whole namespace,
   * the number of its id rows, their newest write (renewed_at) and its live leases; and for a
   * namespace without id rows only (else NULL), the newest write to any id row of the table (one
   * scan); whether the table's registry row (namespace {@code ''}, node id -1) exists, and its
   * lost_until, the time a loss of the table's state was last found (every namespace's holders may
   * have been forgotten then), its max_ttl, and whether the table remembers creating the namespace
   * (its row under the registry's namespace {@code ''}, node id {@link #createdRow}). Every id
   * counted is one the request allows, {@code 0 <= id < size} with {@code (id & mask) = match};
   * {@code inv} is {@code ~mask & (size - 1)}, its free bits. Free: released, or expired by NOW.
   * The lowest id without a row is the first gap in one ordered pass over the namespace's allowed
   * rows (the primary key's order, from the namespace's row -1, which stands before {@code match}),
   * a window function rather than an anti-join, whose plan for a prepared statement can cost an
   * index probe per row. The next allowed id after a row's {@code v} is {@code (((v & inv) + mask +
   * 1) & inv) | match}: the free bits counted up by one (the carry runs through the fixed ones),
   * the fixed ones put back; it is {@code match} after -1, and not above {@code v} past the last
   * allowed id. No sum exceeds {@code size} and no operand is complemented in SQL, so
   * MariaDB/MySQL's unsigned bit arithmetic gives the same answers.
   */
  final String candidates;

  /**
   * (instance, host, token, lost until, lost until, floor, floor, ttl, namespace, node id) Takes an
   * id's row if it is still free: the previous high-water mark, or lost until if later (NULL for
   * none), becomes the prior one; the high-water mark is at least the floor (the promise, and lost
   * until).
   */
  final String claim;

  /**
   * (namespace, node id, instance, host, token, ttl, high water, prior high water) Takes an id that
   * has no row yet.
   */
  final String insert;

  /** (namespace, node id) What an acquisition answers: NOW, expiry, prior high-water mark. */
  final String readBack;

  /** What an acquisition answers, as columns of its row. */
  static final String ACQUIRED = "acquired_at, expires_at, prior_high_water";

  /**
   * (ttl, promise, promise, namespace, node id, instance, token, confirmed expiry) Extends a lease
   * and raises its high-water mark, if it is still this holder's and its expiry is not older than
   * the one the holder last had confirmed (else the row went back: see {@link #rollBack}); on
   * MariaDB/MySQL NOW is also the statement's {@code LAST_INSERT_ID}, which comes back with its row
   * count (or is read with {@code SELECT LAST_INSERT_ID()} where a trigger on the table kept it
   * from coming back).
   */
  final String renew;

  /** What a renewal answers, as columns of its row. */
  static final String RENEWED = "renewed_at, expires_at";

  /**
   * (issued, issued, namespace, node id, instance, token) Ends a lease: the high-water mark becomes
   * what was issued, never below the prior one.
   */
  final String release;

  /**
   * (namespace, node id, instance, token) Ends a lease whose holder does not know what it issued:
   * the high-water mark becomes the prior one.
   */
  final String releaseKeepingPrior;

  /** (namespace, node id) Who holds an id's row now, and NOW: why a renewal matched nothing. */
  final String holder;

  /** (namespace) Every id's row of a namespace, with NOW. */
  final String list;

  /** () Every namespace of the table, by its namespace row (node id -1). */
  final String namespaces;

  /** () NOW alone: the clock of a listing without rows. */
  final String clock;

  /** (namespace, node id) Releases an expired lease, keeping its high-water mark. */
  final String releaseExpired;

  /**
   * (default max ttl, default max skew, slack, default max ttl, default max skew, slack, namespace)
   * After a renewal found its row gone back to an older state: the namespace's lost_until becomes
   * NOW + max_ttl + max_skew + slack (the defaults where none are recorded), never lower.
   */
  final String rollBack;

  /**
   * (promise, promise, namespace, node id, instance, token) Ends a lease whose row went back to an
   * older state: the high-water mark becomes at least the holder's promise.
   */
  final String releaseRolledBack;

  /** (namespace) The namespace's lost_until; of {@code ''}, when a loss of the table was found. */
  final String lostUntil;

  /** (namespace) The namespace's max_ttl and max_skew. */
  final String namespaceLimits;

  /**
   * (time) The registry row's lost_until becomes the time: a loss of the table's state was found,
   * and holders of any namespace may have been forgotten then. The row exists (inserted first).
   */
  final String registryLost;

  /** (max ttl, max ttl) Raises the registry row's max_ttl, the longest any holder asked. */
  final String registryMaxTtl;

  /**
   * (created row, namespace) Remembers that the table created the namespace: a row of the
   * registry's namespace {@code ''} at the node id {@link #createdRow} gives, the namespace's name
   * as its host. Its renewed_at counts as no id row's write (node ids below 0).
   */
  final String rememberNamespace;

  /** (namespace) The newest write to an id row of another namespace than this one. */
  final String othersNewest;

  /**
   * (namespace, namespace) For operators: the namespace's max_ttl, max_skew, newest write to its id
   * rows and lost_until; no row if it has no namespace row.
   */
  final String namespaceState;

  /**
   * The node id of the registry's row that remembers creating {@code namespace}: below -1 (the
   * registry row's own), from the first 62 bits of the name's SHA-256, so that two namespaces of a
   * table share one with a chance of 2^-62 (the second then waits once at its creation).
   */
  static long createdRow(String namespace) {
    try {
      byte[] h =
          MessageDigest.getInstance("SHA-256").digest(namespace.getBytes(StandardCharsets.UTF_8));
      return -2 - (ByteBuffer.wrap(h).getLong() >>> 2);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JDK", e);
    }
  }

  LeaseSql(Dialect dialect, String table) {
    this.dialect = dialect;
    this.table = table;
    String now = dialect.now;
    String free = "(token IS NULL OR expires_at <= " + now + ")";
    check = "SELECT " + COLUMNS + " FROM " + table + " WHERE 1 = 0";
    insertNamespaceRow = dialect.insertNamespaceRow(table);
    lockNamespace =
        "SELECT max_ttl, max_skew, id_rows, lost_until FROM "
            + table
            + " WHERE namespace = ? AND node_id = -1 FOR UPDATE";
    saveNamespace =
        "UPDATE "
            + table
            + " SET max_ttl = ?, max_skew = ?, id_rows = ?, lost_until = ?"
            + " WHERE namespace = ? AND node_id = -1";
    String p = dialect.longParam();
    String allowed = dialect.bitAnd("node_id", p) + " = " + p;
    String next = dialect.bitOr(dialect.bitAnd(dialect.bitAnd("node_id", p) + " + " + p, p), p);
    candidates =
        "SELECT "
            + now
            + ", (SELECT node_id FROM "
            + table
            + " WHERE namespace = ? AND instance = ? AND node_id BETWEEN 0 AND ? AND "
            + allowed
            + " AND "
            + free
            + " ORDER BY acquired_at DESC LIMIT 1)"
            + ", (SELECT MIN(node_id) FROM "
            + table
            + " WHERE namespace = ? AND node_id BETWEEN 0 AND ? AND "
            + allowed
            + " AND "
            + free
            + ")"
            + ", (SELECT MIN(next_allowed) FROM (SELECT node_id, LEAD(node_id) OVER (ORDER BY"
            + " node_id) AS next_row, "
            + next
            + " AS next_allowed FROM "
            + table
            + " WHERE namespace = ? AND node_id BETWEEN -1 AND ? AND (node_id = -1 OR "
            + allowed
            + ")) g WHERE next_allowed > node_id AND (next_row IS NULL OR next_row >"
            + " next_allowed))"
            + ", (SELECT COUNT(*) FROM "
            + table
            + " WHERE namespace = ? AND node_id BETWEEN 0 AND ? AND "
            + allowed
            + " AND token IS NOT NULL AND expires_at > "
            + now
            + "), n.id_rows, n.newest, n.live, CASE WHEN n.id_rows = 0 THEN (SELECT MAX(renewed_at)"
            + " FROM "
            + table
            + " WHERE node_id >= 0) END, (SELECT COUNT(*) FROM "
            + table
            + " WHERE namespace = '' AND node_id = -1), (SELECT lost_until FROM "
            + table
            + " WHERE namespace = '' AND node_id = -1), (SELECT max_ttl FROM "
            + table
            + " WHERE namespace = '' AND node_id = -1), (SELECT COUNT(*) FROM "
            + table
            + " WHERE namespace = '' AND node_id = ?)"
            + " FROM (SELECT COUNT(*) AS id_rows, MAX(renewed_at) AS newest,"
            + " SUM(CASE WHEN token IS NOT NULL AND expires_at > "
            + now
            + " THEN 1 ELSE 0 END) AS live FROM "
            + table
            + " WHERE namespace = ? AND node_id >= 0) n";
    // prior_high_water is assigned first: MySQL assigns left to right, so a later assignment would
    // read the new high_water there (and the old one elsewhere).
    claim =
        "UPDATE "
            + table
            + " SET instance = ?, host = ?, token = ?,"
            + " prior_high_water = GREATEST(COALESCE(high_water, ?), COALESCE(?, high_water)),"
            + " high_water = GREATEST(COALESCE(high_water, ?), ?),"
            + " expires_at = "
            + now
            + " + ?, acquired_at = "
            + now
            + ", renewed_at = "
            + now
            + " WHERE namespace = ? AND node_id = ? AND "
            + free;
    insert =
        "INSERT INTO "
            + table
            + " ("
            + ID_COLUMNS
            + ") VALUES (?, ?, ?, ?, ?, "
            + now
            + " + ?, ?, ?, "
            + now
            + ", "
            + now
            + ")";
    readBack = "SELECT " + ACQUIRED + " FROM " + table + " WHERE namespace = ? AND node_id = ?";
    String renewedAt = dialect == Dialect.MARIADB ? "LAST_INSERT_ID(" + now + ")" : now;
    renew =
        "UPDATE "
            + table
            + " SET expires_at = "
            + now
            + " + ?, high_water = GREATEST(COALESCE(high_water, ?), ?), renewed_at = "
            + renewedAt
            + " WHERE namespace = ? AND node_id = ? AND instance = ? AND token = ? AND expires_at >= ?";
    release =
        "UPDATE "
            + table
            + " SET token = NULL, expires_at = NULL,"
            + " high_water = GREATEST(COALESCE(prior_high_water, ?), ?), renewed_at = "
            + now
            + " WHERE namespace = ? AND node_id = ? AND instance = ? AND token = ?";
    releaseKeepingPrior =
        "UPDATE "
            + table
            + " SET token = NULL, expires_at = NULL,"
            + " high_water = COALESCE(prior_high_water, high_water), renewed_at = "
            + now
            + " WHERE namespace = ? AND node_id = ? AND instance = ? AND token = ?";
    holder =
        "SELECT instance, host, token, expires_at, "
            + now
            + " FROM "
            + table
            + " WHERE namespace = ? AND node_id = ?";
    clock = "SELECT " + now;
    namespaces = "SELECT namespace FROM " + table + " WHERE node_id = -1 AND namespace <> ''";
    list =
        "SELECT node_id, instance, host, token, expires_at, high_water, "
            + now
            + " FROM "
            + table
            + " WHERE namespace = ? AND node_id >= 0 ORDER BY node_id";
    releaseExpired =
        "UPDATE "
            + table
            + " SET token = NULL, expires_at = NULL, renewed_at = "
            + now
            + " WHERE namespace = ? AND node_id = ? AND token IS NOT NULL AND expires_at <= "
            + now;
    String bound = now + " + COALESCE(max_ttl, ?) + COALESCE(max_skew, ?) + ?";
    rollBack =
        "UPDATE "
            + table
            + " SET lost_until = GREATEST(COALESCE(lost_until, "
            + bound
            + "), "
            + bound
            + ") WHERE namespace = ? AND node_id = -1";
    releaseRolledBack =
        "UPDATE "
            + table
            + " SET token = NULL, expires_at = NULL,"
            + " high_water = GREATEST(COALESCE(high_water, ?), ?), renewed_at = "
            + now
            + " WHERE namespace = ? AND node_id = ? AND instance = ? AND token = ?";
    lostUntil = "SELECT lost_until FROM " + table + " WHERE namespace = ? AND node_id = -1";
    namespaceLimits =
        "SELECT max_ttl, max_skew FROM " + table + " WHERE namespace = ? AND node_id = -1";
    registryLost = "UPDATE " + table + " SET lost_until = ? WHERE namespace = '' AND node_id = -1";
    registryMaxTtl =
        "UPDATE "
            + table
            + " SET max_ttl = ? WHERE namespace = '' AND node_id = -1 AND (max_ttl IS NULL OR"
            + " max_ttl < ?)";
    rememberNamespace =
        "INSERT INTO "
            + table
            + " (namespace, node_id, instance, host, acquired_at, renewed_at) VALUES ('', ?, '', ?, "
            + now
            + ", "
            + now
            + ")";
    othersNewest =
        "SELECT MAX(renewed_at) FROM " + table + " WHERE node_id >= 0 AND namespace <> ?";
    namespaceState =
        "SELECT max_ttl, max_skew, (SELECT MAX(renewed_at) FROM "
            + table
            + " WHERE namespace = ? AND node_id >= 0), lost_until FROM "
            + table
            + " WHERE namespace = ? AND node_id = -1";
  }
}
