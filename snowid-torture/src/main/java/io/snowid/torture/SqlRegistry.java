package io.snowid.torture;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A private database server of the run (PostgreSQL or MariaDB, its own data directory, port and
 * address) with snowid's lease table, created by the harness from snowid-jdbc's own DDL (the
 * resource io/snowid/jdbc/DIALECT.sql) before any worker starts, and the database's own record of
 * every version of every lease row.
 */
abstract class SqlRegistry implements Registry {
  /*
   * What the record is. snowid-jdbc writes each grant and renewal as one row version with
   * renewed_at = the database's clock and expires_at = renewed_at + ttl (LeaseSql's claim, insert
   * and renew); a release or an expiry sweep sets token NULL. So the holds are [renewed_at,
   * expires_at] of each committed version that has a token, by the database's clock, if every
   * committed version is recorded (a poller could miss one). PostgreSQL: an AFTER INSERT OR
   * UPDATE trigger copies each version into torture_audit in the same transaction. MariaDB: its
   * binary log in row format (a trigger there would change what snowid reads back: RELIABILITY.md).
   */
  static final String TABLE = "snowid_leases";

  final java.nio.file.Path dir;
  final String host;
  final int port;
  final String options;
  final Pids pids;

  SqlRegistry(java.nio.file.Path dir, InetAddress bind, String options, Pids pids)
      throws IOException {
    this.dir = dir;
    this.host = bind.getHostAddress();
    this.options = options;
    this.pids = pids;
    java.nio.file.Files.createDirectories(dir);
    try (ServerSocket s = new ServerSocket(0, 1, bind)) {
      this.port = s.getLocalPort();
    }
  }

  @Override
  public InetSocketAddress endpoint() {
    return new InetSocketAddress(host, port);
  }

  @Override
  public boolean restartable() {
    return true;
  }

  /** The JDBC URL of the harness's own connections. */
  abstract String adminUrl();

  /** The JDBC URL of a worker, before snowid's options. */
  abstract String workerUrl(InetSocketAddress via);

  /** snowid-jdbc's DDL resource name. */
  abstract String dialect();

  /** The audit table and its triggers. */
  abstract List<String> auditDdl();

  @Override
  public String uri(InetSocketAddress via, String instance) {
    return workerUrl(via) + "&" + options + "&instance=" + instance;
  }

  boolean answers() {
    try (Connection c = DriverManager.getConnection(adminUrl())) {
      return c.isValid(2);
    } catch (SQLException e) {
      return false;
    }
  }

  /** Creates the lease table (snowid-jdbc's own DDL) and the audit. */
  void createTables() throws IOException {
    String ddl;
    try (InputStream in =
        SqlRegistry.class.getResourceAsStream("/io/snowid/jdbc/" + dialect() + ".sql")) {
      if (in == null) {
        throw new IOException("snowid-jdbc's DDL io/snowid/jdbc/" + dialect() + ".sql is missing");
      }
      ddl = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    try (Connection c = DriverManager.getConnection(adminUrl());
        Statement st = c.createStatement()) {
      st.execute(stripComments(ddl));
      for (String sql : auditDdl()) {
        st.execute(sql);
      }
    } catch (SQLException e) {
      throw new IOException("cannot create the lease and audit tables: " + e.getMessage(), e);
    }
  }

  private static String stripComments(String sql) {
    StringBuilder sb = new StringBuilder();
    for (String line : sql.split("\n")) {
      if (!line.trim().startsWith("--")) {
        sb.append(line).append('\n');
      }
    }
    return sb.toString().trim().replaceAll(";$", "");
  }

  /** Every row of the lease table. */
  @Override
  public Snapshot snapshot() throws IOException {
    long at = Timeline.monoMicros() / 1000;
    try (Connection c = DriverManager.getConnection(adminUrl());
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT * FROM " + TABLE)) {
      ResultSetMetaData meta = rs.getMetaData();
      List<String> columns = new ArrayList<>();
      for (int i = 1; i <= meta.getColumnCount(); i++) {
        columns.add(meta.getColumnName(i));
      }
      List<Object[]> rows = new ArrayList<>();
      while (rs.next()) {
        Object[] row = new Object[columns.size()];
        for (int i = 0; i < row.length; i++) {
          row[i] = rs.getObject(i + 1);
        }
        rows.add(row);
      }
      return new Snapshot(at, new Rows(columns, rows));
    } catch (SQLException e) {
      throw new IOException("cannot copy the lease table: " + e.getMessage(), e);
    }
  }

  private record Rows(List<String> columns, List<Object[]> rows) {}

  /**
   * Deletes every row and inserts the snapshot's, in one transaction. The audit sees the inserts as
   * new versions of rows it already recorded.
   */
  @Override
  public void rollback(Snapshot snapshot) throws IOException {
    Rows rows = (Rows) snapshot.state();
    String insert =
        "INSERT INTO "
            + TABLE
            + " ("
            + String.join(", ", rows.columns())
            + ") VALUES ("
            + String.join(", ", java.util.Collections.nCopies(rows.columns().size(), "?"))
            + ")";
    try (Connection c = DriverManager.getConnection(adminUrl())) {
      c.setAutoCommit(false);
      try (Statement st = c.createStatement();
          PreparedStatement ps = c.prepareStatement(insert)) {
        st.executeUpdate("DELETE FROM " + TABLE);
        for (Object[] row : rows.rows()) {
          for (int i = 0; i < row.length; i++) {
            ps.setObject(i + 1, row[i]);
          }
          ps.addBatch();
        }
        ps.executeBatch();
        c.commit();
      } catch (SQLException e) {
        c.rollback();
        throw e;
      }
    } catch (SQLException e) {
      throw new IOException("cannot put the lease table back: " + e.getMessage(), e);
    }
  }

  /** Reads the audit (the server still runs), then stops the server. */
  @Override
  public List<Hold> stopAndReadHolds(Timeline timeline) throws IOException, InterruptedException {
    List<Hold> holds = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(adminUrl());
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT instance, node_id, renewed_at, expires_at, high_water, namespace"
                    + " FROM torture_audit"
                    + " WHERE token IS NOT NULL AND node_id >= 0 AND expires_at IS NOT NULL")) {
      while (rs.next()) {
        long highWater = rs.getLong(5);
        holds.add(
            new Hold(
                rs.getString(1),
                rs.getString(6),
                rs.getLong(2),
                timeline.monoOfWall(rs.getLong(3)),
                timeline.monoOfWall(rs.getLong(4)),
                rs.wasNull() ? Long.MIN_VALUE : highWater));
      }
    } catch (SQLException e) {
      throw new IOException("cannot read the audit: " + e.getMessage(), e);
    } finally {
      close();
    }
    return holds;
  }

  @Override
  public String holdsSource() {
    return name()
        + "'s audit table, filled by a trigger on every insert and update of the lease table:"
        + " [renewed_at, expires_at] by the database's clock";
  }
}
