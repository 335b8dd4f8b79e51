package io.snowid.cli;

/**
 * One logging stack for the whole command: everything logs through SLF4J to slf4j-simple, one line
 * per record on stderr, configured by the one file {@code simplelogger.properties}. Jetty and the
 * server use SLF4J directly; the core and this command use {@code System.Logger}, which
 * slf4j-jdk-platform-logging routes to SLF4J. Commands that print IDs show snowid's warnings only,
 * {@code serve} and {@code --verbose} its informational lines too.
 */
final class Logs {
  /** The level of every {@code io.snowid} logger (the core's {@code io.snowid.node}, …). */
  static final String SNOWID_LEVEL = "org.slf4j.simpleLogger.log.io.snowid";

  /**
   * Clients whose connection warnings repeat snowid's own lease lines: error only (the command's
   * simplelogger.properties), warn with {@code --verbose}.
   */
  private static final String[] QUIET_CLIENTS = {
    "org.slf4j.simpleLogger.log.org.apache.zookeeper",
    "org.slf4j.simpleLogger.log.org.apache.curator"
  };

  /** A level given with {@code -D} on the command line wins. */
  private static final boolean GIVEN = System.getProperty(SNOWID_LEVEL) != null;

  private Logs() {}

  /**
   * Sets snowid's level, and with {@code verbose} the quiet clients' too. slf4j-simple reads a
   * logger's level when the logger is made, so this runs before the command makes its generator or
   * server, whose classes make theirs.
   */
  static void configure(boolean informational, boolean verbose) {
    if (!GIVEN) {
      System.setProperty(SNOWID_LEVEL, informational ? "info" : "warn");
    }
    if (verbose) {
      for (String client : QUIET_CLIENTS) {
        System.setProperty(client, "warn");
      }
    }
  }
}
