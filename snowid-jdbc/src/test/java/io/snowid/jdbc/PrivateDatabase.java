package io.snowid.jdbc;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A database server of a test's own, which it may kill and start again, and whose tables it may
 * dump and restore as an operator would: {@link PrivatePostgres}, {@link PrivateMariaDb}. Each runs
 * on a free port of 127.0.0.1 from a temporary directory that {@link #close()} removes; the shared
 * servers of the tests are never touched.
 */
interface PrivateDatabase extends AutoCloseable {
  /** Its port on 127.0.0.1. */
  int port();

  /**
   * The JDBC URL of its database, with a query (snowid's options follow as {@code &name=value}).
   */
  String url();

  /** A dump of one table into a file of this server's directory, by the database's own tool. */
  Path dump(String table) throws IOException, InterruptedException;

  /** Drops the table and loads it from a {@link #dump}, as an operator's restore would. */
  void restore(String table, Path dump) throws IOException, InterruptedException;

  /** Kills the server at once, as in a crash. */
  void stopImmediately() throws IOException, InterruptedException;

  /** Starts it (again, on the same port) and waits until it accepts connections. */
  void start() throws IOException, InterruptedException;

  /** Kills the server if it runs and removes its directory. */
  @Override
  void close() throws IOException, InterruptedException;
}
