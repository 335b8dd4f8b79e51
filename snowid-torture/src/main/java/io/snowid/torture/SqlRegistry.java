package io.snowid.torture;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
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
