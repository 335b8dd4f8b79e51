package io.snowid.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.util.Locale;
import java.util.Set;

/**
 * What differs between the databases snowid leases on: the database's clock as an SQL expression,
 * the bit operators, the table's DDL (a resource per dialect), how a statement hands back the row
 * it changed, how a row is inserted unless it exists, and what the database's error codes mean.
 * Everything else is the same SQL everywhere ({@link LeaseSql}).
 */
enum Dialect {
  /** {@code CURRENT_TIMESTAMP} is the transaction's start; {@code UPDATE … RETURNING}. */
  POSTGRESQL(
      "PostgreSQL",
      "postgresql",
      "CAST(FLOOR(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000) AS BIGINT)",
      Set.of("42P01"),
      Set.of("42703")),
  /**
   * MariaDB and MySQL. {@code UTC_TIMESTAMP(6)} is the statement's start, in UTC whatever the
   * session's time zone (so no DST hour is ambiguous); there is no {@code UPDATE … RETURNING}.
   */
  MARIADB(
      "MariaDB/MySQL",
      "mariadb",
      "(TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6)) DIV 1000)",
      Set.of("42S02"),
      Set.of("42S22")),
  /** H2 2.x: {@code CURRENT_TIMESTAMP} is the transaction's start; {@code FINAL TABLE (…)}. */
  H2(
      "H2",
      "h2",
      "CAST(FLOOR(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000) AS BIGINT)",
      Set.of("42S02", "42S04", "42102", "42104"),
      Set.of("42S22", "42122"));

  /** The database's clock, Unix milliseconds, as an SQL expression of type BIGINT. */
  final String now;

  private final String displayName;
  private final String resource;
  private final Set<String> missingTable;
  private final Set<String> missingColumn;

  Dialect(
      String displayName,
      String resource,
      String now,
      Set<String> missingTable,
      Set<String> missingColumn) {
    this.displayName = displayName;
    this.resource = resource;
    this.now = now;
    this.missingTable = missingTable;
    this.missingColumn = missingColumn;
  }

  /** The dialect of a JDBC URL, by its subprotocol; null if snowid has none for it. */
  static Dialect ofUrl(String url) {
    String u = url.toLowerCase(Locale.ROOT);
    if (u.startsWith("jdbc:postgresql:")) {
      return POSTGRESQL;
    }
    if (u.startsWith("jdbc:mariadb:") || u.startsWith("jdbc:mysql:")) {
      return MARIADB;
    }
    if (u.startsWith("jdbc:h2:")) {
      return H2;
    }
    return null;
  }

  /** The dialect of a database, by the product name its driver reports; null if none. */
  static Dialect ofProduct(String productName) {
    String p = productName == null ? "" : productName.toLowerCase(Locale.ROOT);
    if (p.equals("postgresql")) {
      return POSTGRESQL;
    }
    if (p.equals("mariadb") || p.equals("mysql")) {
      return MARIADB;
    }
    if (p.equals("h2")) {
      return H2;
    }
    return null;
  }

  @Override
  public String toString() {
    return displayName;
  }

  /**
   * The DDL of the lease table, named {@code table}: the resource {@code
   * io/snowid/jdbc/<dialect>.sql} with its table name replaced.
   */
  String ddl(String table) {
    try (InputStream in = Dialect.class.getResourceAsStream(resource + ".sql")) {
      if (in == null) {
        throw new IllegalStateException("missing resource io/snowid/jdbc/" + resource + ".sql");
      }
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return text.replace("snowid_leases", table);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A statement that inserts the row of a namespace (node id -1; its one parameter is the
   * namespace) unless it exists, with the database's clock as its times. Two inserting at once may
   * still meet a unique violation on some databases: the row exists then, which is what was wanted.
   */
  String insertNamespaceRow(String table) {
    String columns = "namespace, node_id, instance, host, acquired_at, renewed_at";
    return switch (this) {
      case POSTGRESQL ->
          "INSERT INTO "
              + table
              + " ("
              + columns
              + ") VALUES (?, -1, '', '', "
              + now
              + ", "
              + now
              + ") ON CONFLICT (namespace, node_id) DO NOTHING";
      case MARIADB ->
          "INSERT IGNORE INTO "
              + table
              + " ("
              + columns
              + ") VALUES (?, -1, '', '', "
              + now
              + ", "
              + now
              + ")";
      case H2 ->
          "MERGE INTO "
              + table
              + " t USING (VALUES (CAST(? AS VARCHAR(255)))) s(ns) ON t.namespace = s.ns AND"
              + " t.node_id = -1 WHEN NOT MATCHED THEN INSERT ("
              + columns
              + ") VALUES (s.ns, -1, '', '', "
              + now
              + ", "
              + now
              + ")";
    };
  }

  /**
   * A query that runs {@code dml} (an UPDATE or INSERT of one row) and answers the row's {@code
   * columns} as it is afterwards; null for a database that cannot (MariaDB/MySQL: the caller reads
   * the row again in the same transaction).
   */
  String returning(String dml, String columns) {
    return switch (this) {
      case POSTGRESQL -> dml + " RETURNING " + columns;
      case H2 -> "SELECT " + columns + " FROM FINAL TABLE (" + dml + ")";
      case MARIADB -> null;
    };
  }

  /**
   * {@code a AND b}, bit by bit, of two BIGINT expressions: {@code &} on PostgreSQL and
   * MariaDB/MySQL (there on unsigned 64 bits: a negative operand's bits are its two's complement,
   * and the result is unsigned), {@code BITAND} on H2. snowid's SQL never uses NOT ({@code ~}, 64
   * bits wide on MariaDB/MySQL): a complement it needs is computed in Java and bound.
   */
  String bitAnd(String a, String b) {
    return this == H2 ? "BITAND(" + a + ", " + b + ")" : "(" + a + " & " + b + ")";
  }

  /**
   * A BIGINT parameter as an operand of {@link #bitAnd}, {@link #bitOr} or a sum of theirs: H2
   * cannot tell a bare {@code ?}'s type there.
   */
  String longParam() {
    return this == H2 ? "CAST(? AS BIGINT)" : "?";
  }

  /** {@code a OR b}, bit by bit, of two BIGINT expressions: as {@link #bitAnd}. */
  String bitOr(String a, String b) {
    return this == H2 ? "BITOR(" + a + ", " + b + ")" : "(" + a + " | " + b + ")";
  }

  /** Whether an error says the table does not exist. */
  boolean missingTable(SQLException e) {
    return missingTable.contains(e.getSQLState());
  }

  /** Whether an error says a column does not exist. */
  boolean missingColumn(SQLException e) {
    return missingColumn.contains(e.getSQLState());
  }

  /** Whether an error is a unique-key violation. */
  static boolean uniqueViolation(SQLException e) {
    String state = e.getSQLState();
    return state != null
        && (state.equals("23505") || (state.equals("23000") && e.getErrorCode() == 1062));
  }

  /**
   * Whether a transaction failed only because another one ran at the same time (a deadlock, a
   * serialization failure, a lock not granted in time on H2): trying it again is the cure.
   */
  static boolean retryable(SQLException e) {
    String state = e.getSQLState();
    return state != null
        && (state.equals("40001")
            || state.equals("40P01")
            || state.equals("HYT00")
            || state.equals("90131"));
  }

  /** Whether an error says the statement ran out of its query timeout. */
  static boolean timedOut(SQLException e) {
    String state = e.getSQLState();
    return e instanceof SQLTimeoutException
        || (state != null && (state.equals("57014") || state.equals("70100")));
  }
}
