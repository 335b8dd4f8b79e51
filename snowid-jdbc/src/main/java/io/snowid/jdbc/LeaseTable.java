package io.snowid.jdbc;

import java.sql.SQLException;

/**
 * Makes sure the lease table is there and is snowid's, creating it when the URI allows ({@code
 * create=true}).
 */
final class LeaseTable {
  private LeaseTable() {}

  /**
   * @throws LeaseTableException if the table is missing (and may not be created) or not snowid's
   * @throws io.snowid.node.NodeIdUnavailableException if the database fails
   */
  static void prepare(Database db, LeaseSql sql) {
    JdbcSettings settings = db.settings();
    String ddl = db.dialect().ddl(settings.table());
    db.call(
        "the check of the lease table",
        5_000,
        false,
        s -> {
          try {
            s.queryOne(sql.check, rs -> null);
          } catch (SQLException e) {
            if (db.dialect().missingTable(e)) {
              if (!settings.create()) {
                throw new LeaseTableException(
                    settings.table(),
                    db.describe(),
                    "does not exist",
                    "create it with: "
                        + oneLine(ddl)
                        + " (or add create=true to the node URI to let snowid create it)",
                    ddl);
              }
              create(s, sql, ddl);
            } else if (db.dialect().missingColumn(e)) {
              throw new LeaseTableException(
                  settings.table(),
                  db.describe(),
                  "is not snowid's lease table (" + settings.scrub(e.getMessage()) + ")",
                  "name another table with table=NAME, or create it with: " + oneLine(ddl),
                  ddl);
            } else {
              throw e;
            }
          }
          if (db.dialect() == Dialect.MARIADB) {
            checkEngine(s, db, settings, ddl);
          }
          return null;
        });
  }

  /**
   * Runs the DDL. Two processes creating the table at once may make the DDL of one of them fail
   * even with {@code IF NOT EXISTS} (PostgreSQL's catalog race): the table is there then.
   */
  private static void create(Database.Session s, LeaseSql sql, String ddl) throws SQLException {
    try {
      s.update(ddl);
    } catch (SQLException e) {
      try {
        s.queryOne(sql.check, rs -> null);
      } catch (SQLException again) {
        e.addSuppressed(again);
        throw e;
      }
    }
  }

  /** MariaDB/MySQL: a table in an engine without transactions (MyISAM) would lose races. */
  private static void checkEngine(
      Database.Session s, Database db, JdbcSettings settings, String ddl) throws SQLException {
    String table = settings.table();
    int dot = table.indexOf('.');
    String engine =
        s.queryOne(
            "SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = "
                + (dot < 0 ? "DATABASE()" : "?")
                + " AND TABLE_NAME = ?",
            rs -> rs.getString(1),
            dot < 0
                ? new Object[] {table}
                : new Object[] {table.substring(0, dot), table.substring(dot + 1)});
    if (engine != null && !engine.equalsIgnoreCase("InnoDB")) {
      throw new LeaseTableException(
          table,
          db.describe(),
          "uses the engine " + engine + ", which has no transactions or row locks",
          "ALTER TABLE " + table + " ENGINE = InnoDB",
          ddl);
    }
  }

  /**
   * Inserts the row of a namespace unless it exists; a unique violation means another holder
   * inserted it at the same time, which is as good; so does a serialization failure (PostgreSQL's
   * ON CONFLICT under REPEATABLE READ or SERIALIZABLE, when the row another holder just inserted is
   * not in the statement's snapshot).
   */
  static void insertNamespaceRow(Database.Session s, LeaseSql sql, String namespace)
      throws SQLException {
    try {
      s.update(sql.insertNamespaceRow, namespace);
    } catch (SQLException e) {
      if (!Dialect.uniqueViolation(e) && !Dialect.retryable(e)) {
        throw e;
      }
    }
  }

  /** A DDL text on one line, without its comments: for a message. */
  static String oneLine(String ddl) {
    return ddl.replaceAll("(?m)^\\s*--.*$", "").replaceAll("\\s+", " ").strip();
  }
}
