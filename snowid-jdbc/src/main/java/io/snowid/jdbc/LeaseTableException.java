package io.snowid.jdbc;

import io.snowid.node.NodeIdUnavailableException;

/**
 * The lease table cannot be used: it does not exist (and the URI does not say {@code create=true}),
 * or it is not snowid's (a column is missing, or MariaDB/MySQL keeps it in an engine without
 * transactions). The message is one line: {@code lease table <table> on <database> <problem>;
 * <fix>}, and for a missing table the fix is the DDL to run, also available as {@link #ddl()}.
 */
public class LeaseTableException extends NodeIdUnavailableException {
  private static final long serialVersionUID = 1L;

  private final String table;
  private final String database;
  private final String problem;
  private final String ddl;

  /**
   * @param table the table's name as configured ({@code table=}, default {@code snowid_leases})
   * @param database where it was looked for, without credentials
   * @param problem what is wrong with it
   * @param fix what to do about it
   * @param ddl the DDL of the table for this database
   */
  public LeaseTableException(
      String table, String database, String problem, String fix, String ddl) {
    super("lease table " + table + " on " + database + " " + problem + "; " + fix);
    this.table = table;
    this.database = database;
    this.problem = problem;
    this.ddl = ddl;
  }

  /** The table's name as configured. */
  public String table() {
    return table;
  }

  /** The database it was looked for in, without credentials. */
  public String database() {
    return database;
  }

  /** What is wrong with it. */
  public String problem() {
    return problem;
  }

  /** The DDL of the lease table for this database, as shipped ({@code io/snowid/jdbc/*.sql}). */
  public String ddl() {
    return ddl;
  }
}
