package io.snowid.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.snowid.Durations;
import io.snowid.InvalidSettingException;
import io.snowid.SnowIdException;
import io.snowid.lease.RegistryUnavailableException;
import io.snowid.node.NodeIdUnavailableException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * The database of a lease table: a {@link DataSource} (a HikariCP pool snowid made for a URL, or
 * the application's own), and bounded calls on it. Every call gets a connection, runs its
 * statements with a query timeout (the database cancels them itself) and a network timeout a second
 * longer (for a database that does not answer at all), and turns every failure into a {@link
 * NodeIdUnavailableException} that names the call and the database, without a password.
 */
final class Database implements AutoCloseable {
  /** The pool snowid makes: one connection kept open, a second one while two calls overlap. */
  static final int POOL_SIZE = 2;

  /**
   * How long a call may wait for a connection of snowid's pool. HikariCP also makes it (plus 0.5 s,
   * in whole seconds) the JVM's {@link DriverManager#setLoginTimeout login timeout}, so it is not
   * cut too short for a database on a busy host.
   */
  static final long CONNECTION_TIMEOUT_MILLIS = 2_000;

  /** PostgreSQL's login timeout unless the URL sets {@code loginTimeout}: seconds. */
  static final long LOGIN_TIMEOUT_SECONDS = 5;

  /** A network timeout is the query timeout plus this: the database's own cancel comes first. */
  static final long NETWORK_SLACK_MILLIS = 1_000;

  /** Attempts of a transaction that failed only because another ran at the same time. */
  private static final int ATTEMPTS = 4;

  private static final Executor DIRECT = Runnable::run;

  private final DataSource dataSource;
  private final HikariDataSource owned; // null when the application's
  private final JdbcSettings settings;
  private final AtomicLong statements = new AtomicLong();
  private volatile boolean networkTimeouts = true;
  private volatile boolean closed;

  private Database(DataSource dataSource, HikariDataSource owned, JdbcSettings settings) {
    this.dataSource = dataSource;
    this.owned = owned;
    this.settings = settings;
  }

  /**
   * Makes a small pool for the URL of {@code settings}.
   *
   * @throws InvalidSettingException if a parameter is neither snowid's nor the driver's, or no
   *     driver on the class path accepts the URL (checked before any connection)
   * @throws NodeIdUnavailableException if the database cannot be reached
   */
  static Database pool(JdbcSettings settings) {
    Driver driver = driver(settings);
    DriverParameters.require(settings, driver);
    if (driver == null) {
      throw new InvalidSettingException(
          "node",
          settings.describe(),
          "a URL that a JDBC driver on the class path accepts; add the driver of your database"
              + " (org.postgresql:postgresql, org.mariadb.jdbc:mariadb-java-client,"
              + " com.h2database:h2); jdbc:mysql: needs MySQL Connector/J, or the MariaDB driver"
              + " with the parameter permitMysqlScheme");
    }
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(settings.url());
    config.setPoolName("snowid-lease " + settings.describe());
    config.setMaximumPoolSize(POOL_SIZE);
    config.setMinimumIdle(1);
    config.setConnectionTimeout(CONNECTION_TIMEOUT_MILLIS);
    config.setValidationTimeout(500);
    config.setInitializationFailTimeout(1); // fail at once when the first connection fails
    if (settings.dialect() == Dialect.POSTGRESQL
        && settings.driverParameters().stream()
            .noneMatch(p -> p.equalsIgnoreCase("loginTimeout"))) {
      // PgJDBC waits for a login answer without end by default: a server that accepts and never
      // answers (a stopped postmaster, the wrong port) would hold the start past connectWait
      config.addDataSourceProperty("loginTimeout", Long.toString(LOGIN_TIMEOUT_SECONDS));
    }
    HikariDataSource pool;
    try {
      pool = new HikariDataSource(config);
    } catch (RuntimeException e) {
      InvalidSettingException refused = DriverParameters.refusedSetting(settings, e);
      if (refused != null) {
        throw refused;
      }
      throw unreachable(
          e,
          settings.dialect()
              + " at "
              + settings.describe()
              + " cannot be reached: "
              + settings.scrub(messages(e)));
    }
    return new Database(pool, pool, settings);
  }

  /**
   * An application's DataSource; its database, and with it the dialect, is read from the metadata
   * of one connection.
   *
   * @throws InvalidSettingException if the database is not one snowid has a dialect for
   * @throws NodeIdUnavailableException if no connection can be had
   */
  static Database of(DataSource dataSource, JdbcSettings settings) {
    String product;
    String url;
    try (Connection c = dataSource.getConnection()) {
      DatabaseMetaData meta = c.getMetaData();
      product = meta.getDatabaseProductName();
      url = meta.getURL();
    } catch (SQLException | RuntimeException e) {
      throw unreachable(
          e,
          "the DataSource "
              + dataSource.getClass().getName()
              + " gave no connection: "
              + settings.scrub(messages(e)));
    }
    Dialect dialect = Dialect.ofProduct(product);
    if (dialect == null) {
      throw new InvalidSettingException(
          "dataSource", product, "a DataSource of PostgreSQL, MariaDB, MySQL or H2");
    }
    String where =
        (url == null ? dialect.toString() : JdbcSettings.describeUrl(url)) + settings.tableSuffix();
    return new Database(dataSource, null, settings.describedAs(where, dialect));
  }

  /** The driver that accepts the URL; null if none on the class path does. */
  private static Driver driver(JdbcSettings settings) {
    try {
      return DriverManager.getDriver(settings.url());
    } catch (SQLException e) {
      return null;
    }
  }

  Dialect dialect() {
    return settings.dialect();
  }

  JdbcSettings settings() {
    return settings;
  }

  String describe() {
    return settings.describe();
  }

  /** Statements sent so far, commits and rollbacks included; for tests and measurements. */
  long statements() {
    return statements.get();
  }

  /** The work of one call: statements on one connection. */
  interface Work<T> {
    T run(Session session) throws SQLException;
  }

  /**
   * Runs {@code work} on a connection, as one transaction if {@code transaction} (committed at the
   * end, rolled back on any failure, tried again when it failed only because another transaction
   * ran at the same time), else each statement on its own. The database cancels a statement that
   * runs longer than the whole number of seconds (JDBC's unit) below {@code boundMillis}, at least
   * 1 s; a network timeout one second longer catches a database that does not answer at all.
   *
   * @param what the call, for messages: "renewal", "acquisition", …
   * @throws NodeIdUnavailableException if the database failed, did not answer in time or could not
   *     be reached; snowid's own exceptions thrown by {@code work} pass through
   */
  /** The statement timeout of a call bounded by {@code boundMillis}: whole seconds, at least 1. */
  static int queryTimeoutSeconds(long boundMillis) {
    return (int) Math.max(1, (boundMillis - 1) / 1000);
  }

  <T> T call(String what, long boundMillis, boolean transaction, Work<T> work) {
    if (closed) {
      throw new NodeIdUnavailableException("the coordinator of " + describe() + " is closed");
    }
    int queryTimeout = queryTimeoutSeconds(boundMillis);
    long started = System.nanoTime();
    for (int attempt = 1; ; attempt++) {
      try {
        return attempt(transaction, queryTimeout, work);
      } catch (SQLException e) {
        if (transaction
            && attempt < ATTEMPTS
            && (Dialect.retryable(e) || Dialect.uniqueViolation(e))) {
          backOff(attempt);
          continue;
        }
        throw failure(what, e, started, queryTimeout);
      } catch (RuntimeException e) {
        if (e instanceof SnowIdException) {
          throw e;
        }
        throw failure(what, e, started, queryTimeout);
      }
    }
  }

  private <T> T attempt(boolean transaction, int queryTimeout, Work<T> work) throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      int networkTimeout = setNetworkTimeout(c, queryTimeout * 1000L + NETWORK_SLACK_MILLIS);
      try {
        Session session = new Session(c, queryTimeout);
        boolean autoCommit = c.getAutoCommit();
        if (!transaction) {
          /* An application's DataSource may hand out connections with autocommit off: a statement
           * run on one would then never be committed (the pool rolls it back on return) while
           * the holder believes its renewal, release or namespace row stored. Each statement of
           * such a call is forced to commit on its own, and the connection is given back as it
           * came. */
          if (!autoCommit) {
            c.setAutoCommit(true);
          }
          try {
            return work.run(session);
          } finally {
            if (!autoCommit && !c.isClosed()) {
              c.setAutoCommit(false);
            }
          }
        }
        int isolation = readCommitted(c);
        c.setAutoCommit(false);
        try {
          T result = work.run(session);
          statements.incrementAndGet();
          c.commit();
          return result;
        } catch (SQLException | RuntimeException e) {
          rollbackQuietly(c);
          throw e;
        } finally {
          if (!c.isClosed()) {
            c.setAutoCommit(autoCommit);
            if (isolation >= 0) {
              c.setTransactionIsolation(isolation);
            }
          }
        }
      } finally {
        if (networkTimeout >= 0 && !c.isClosed()) {
          c.setNetworkTimeout(DIRECT, networkTimeout);
        }
      }
    }
  }

  /**
   * Runs a transaction at READ COMMITTED where the connection's level is stricter: under REPEATABLE
   * READ or SERIALIZABLE, PostgreSQL takes the transaction's snapshot before the lock on the
   * namespace's row is granted, so the waiters of a race would all fail on the winner's row. On
   * MariaDB/MySQL the level is left alone: the lock and the conditional writes read the latest rows
   * at any level. The level before, or -1 if unchanged.
   */
  private int readCommitted(Connection c) throws SQLException {
    if (settings.dialect() == Dialect.MARIADB) {
      return -1;
    }
    int before = c.getTransactionIsolation();
    if (before == Connection.TRANSACTION_READ_COMMITTED
        || before == Connection.TRANSACTION_NONE
        || before == Connection.TRANSACTION_READ_UNCOMMITTED) {
      return -1;
    }
    c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
    return before;
  }

  /**
   * Waits a random time before attempt {@code attempt + 1} (up to 10, 20, 40 ms), so that the
   * transactions that met in a race do not meet again in lockstep.
   */
  private static void backOff(int attempt) {
    long bound = 10L << Math.min(attempt - 1, 4);
    try {
      Thread.sleep(java.util.concurrent.ThreadLocalRandom.current().nextLong(1, bound + 1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Sets a network timeout; the one before, or -1 where the driver has none (embedded H2). */
  private int setNetworkTimeout(Connection c, long millis) throws SQLException {
    if (!networkTimeouts) {
      return -1;
    }
    try {
      int before = c.getNetworkTimeout();
      c.setNetworkTimeout(DIRECT, (int) Math.min(Integer.MAX_VALUE, millis));
      return before;
    } catch (SQLFeatureNotSupportedException | UnsupportedOperationException e) {
      networkTimeouts = false;
      return -1;
    }
  }

  private void rollbackQuietly(Connection c) {
    try {
      if (!c.isClosed()) {
        statements.incrementAndGet();
        c.rollback();
      }
    } catch (SQLException e) {
      // the connection is broken; the pool replaces it
    }
  }

  private NodeIdUnavailableException failure(
      String what, Exception e, long startedNanos, int queryTimeout) {
    if (e instanceof SQLException sql && Dialect.timedOut(sql)) {
      return new RegistryUnavailableException(
          what + " on " + describe() + " did not answer within " + queryTimeout + " s (cancelled)");
    }
    long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos);
    if (took >= queryTimeout * 1000L + NETWORK_SLACK_MILLIS) {
      return new RegistryUnavailableException(
          what
              + " on "
              + describe()
              + " did not answer within "
              + Durations.format(Duration.ofMillis(took))
              + ": "
              + settings.scrub(messages(e)));
    }
    if (Thread.interrupted()) {
      Thread.currentThread().interrupt(); // kept for the caller
      return new NodeIdUnavailableException(what + " on " + describe() + " was interrupted");
    }
    return unreachable(e, what + " on " + describe() + " failed: " + settings.scrub(messages(e)));
  }

  /**
   * The failure to report: {@link RegistryUnavailableException} when waiting may help (no
   * connection: refused, timed out, lost; a database still starting), else a plain one (an unknown
   * host, a refused password, a missing database fail at once).
   */
  static NodeIdUnavailableException unreachable(Throwable e, String message) {
    return notAnswering(e)
        ? new RegistryUnavailableException(message)
        : new NodeIdUnavailableException(message);
  }

  static boolean notAnswering(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.net.UnknownHostException
          || String.valueOf(t.getMessage()).contains("password")) {
        return false; // an unknown host, a password refused or missing
      }
      if (t instanceof SQLException sql && sql.getSQLState() != null) {
        String state = sql.getSQLState();
        if (state.startsWith("28") || state.equals("3D000") || state.equals("42000")) {
          return false; // a refused login, or no such database: waiting does not fix it
        }
      }
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.sql.SQLTransientConnectionException) {
        return true;
      }
      if (t instanceof SQLException sql && sql.getSQLState() != null) {
        String state = sql.getSQLState();
        if (state.startsWith("08") || state.equals("57P03")) {
          return true; // no connection; the database is starting up
        }
      }
    }
    return RegistryUnavailableException.notAnswering(e);
  }

  /** An exception's message and those of its causes that add something, joined by ": ". */
  static String messages(Throwable e) {
    List<String> parts = new ArrayList<>();
    for (Throwable t = e; t != null && parts.size() < 4; t = t.getCause()) {
      String m = t.getMessage();
      if (m == null || m.isBlank()) {
        continue;
      }
      String line = m.strip().replaceAll("\\s+", " ");
      if (parts.stream().noneMatch(p -> p.contains(line))) {
        parts.add(line);
      }
    }
    return parts.isEmpty() ? e.getClass().getSimpleName() : String.join(": ", parts);
  }

  /** Closes the pool snowid made; an application's DataSource is left alone. */
  @Override
  public void close() {
    closed = true;
    if (owned != null) {
      owned.close();
    }
  }

  /** The statements of one call, on its connection. */
  final class Session {
    private final Connection connection;
    private final int queryTimeout;

    private Session(Connection connection, int queryTimeout) {
      this.connection = connection;
      this.queryTimeout = queryTimeout;
    }

    /** A row of longs and strings, as a query answered it. */
    interface RowReader<T> {
      T read(ResultSet rs) throws SQLException;
    }

    /** Runs an UPDATE, INSERT or DDL statement; its row count. */
    int update(String sql, Object... args) throws SQLException {
      try (PreparedStatement ps = prepare(sql, Statement.NO_GENERATED_KEYS, args)) {
        return ps.executeUpdate();
      }
    }

    /**
     * Runs an UPDATE on MariaDB/MySQL that sets {@code LAST_INSERT_ID(expr)} on the one row it
     * changes: its row count and the value of {@code expr}. One round trip when the server sends
     * the value back with the row count; two when a trigger on the table kept it from doing so.
     *
     * @return {@code {rows, value}}; value 0 if no row was changed, or if the connection's {@code
     *     LAST_INSERT_ID()} was 0 (never the value of a changed row's {@code expr} that is not 0)
     */
    long[] updateReturningLastInsertId(String sql, Object... args) throws SQLException {
      /* The server puts expr in the "insert id" of the row count's OK packet only while its note
       * that this statement called LAST_INSERT_ID(expr) stands (mysql_update: "If LAST_INSERT_ID(X)
       * was used, report X", else 0), and every statement of a trigger clears that note when it
       * ends (THD::cleanup_after_query), in MariaDB and MySQL alike. So with any trigger on the
       * table, AFTER or BEFORE, inserting into an AUTO_INCREMENT table or not, the packet says 0
       * and the driver returns no key, and taking that 0 as the database's clock (1970) would fence
       * every renewal for clock skew. A trigger never puts its own value there: an id its INSERT
       * generated, or a LAST_INSERT_ID(Y) it called, is undone when the trigger ends (the server
       * restores the caller's LAST_INSERT_ID), and the field is 0 or the connection's
       * LAST_INSERT_ID(), which the changed row's expr set. That value is per connection and still
       * expr after the statement, so a changed row without a key is read back with SELECT
       * LAST_INSERT_ID() on the same connection: a second round trip only where a trigger runs. */
      try (PreparedStatement ps = prepare(sql, Statement.RETURN_GENERATED_KEYS, args)) {
        int rows = ps.executeUpdate();
        long value = 0;
        try (ResultSet keys = ps.getGeneratedKeys()) {
          if (keys.next()) {
            value = keys.getLong(1);
          }
        }
        if (rows > 0 && value == 0) {
          Long read = queryOne("SELECT LAST_INSERT_ID()", rs -> rs.getLong(1));
          value = read == null ? 0 : read;
        }
        return new long[] {rows, value};
      }
    }

    /** Runs a query; the first row read by {@code reader}, or null if there is none. */
    <T> T queryOne(String sql, RowReader<T> reader, Object... args) throws SQLException {
      try (PreparedStatement ps = prepare(sql, Statement.NO_GENERATED_KEYS, args);
          ResultSet rs = ps.executeQuery()) {
        return rs.next() ? reader.read(rs) : null;
      }
    }

    /** Runs a query; every row read by {@code reader}. */
    <T> List<T> queryAll(String sql, RowReader<T> reader, Object... args) throws SQLException {
      List<T> rows = new ArrayList<>();
      try (PreparedStatement ps = prepare(sql, Statement.NO_GENERATED_KEYS, args);
          ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(reader.read(rs));
        }
      }
      return rows;
    }

    private PreparedStatement prepare(String sql, int keys, Object... args) throws SQLException {
      PreparedStatement ps = connection.prepareStatement(sql, keys);
      try {
        ps.setQueryTimeout(queryTimeout);
        for (int i = 0; i < args.length; i++) {
          Object a = args[i];
          if (a == null) { // only ever a BIGINT: the strings bound are never null
            ps.setNull(i + 1, java.sql.Types.BIGINT);
          } else if (a instanceof Long l) {
            ps.setLong(i + 1, l);
          } else if (a instanceof Integer n) {
            ps.setLong(i + 1, n);
          } else {
            ps.setString(i + 1, (String) a);
          }
        }
      } catch (SQLException | RuntimeException e) {
        ps.close();
        throw e;
      }
      statements.incrementAndGet();
      return ps;
    }
  }

  /** A long column that may be NULL. */
  static Long longOrNull(ResultSet rs, int column) throws SQLException {
    long v = rs.getLong(column);
    return rs.wasNull() ? null : v;
  }
}
