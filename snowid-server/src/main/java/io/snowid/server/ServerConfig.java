package io.snowid.server;

import com.sun.management.UnixOperatingSystemMXBean;
import io.snowid.Durations;
import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import io.snowid.lease.LeaseCoordinators;
import io.snowid.lease.Secrets;
import java.lang.management.ManagementFactory;
import java.time.Duration;

/**
 * Settings of a {@link SnowIdServer}. Immutable; every {@code with…} method validates its value and
 * returns a copy.
 *
 * @param bind the address to listen on; {@code 127.0.0.1} unless told otherwise
 * @param port the TCP port; 0 picks a free one (see {@link SnowIdServer#port()})
 * @param layout the layout of the IDs issued, and of those {@code GET /decode} reads by default
 * @param node where the node values come from, as {@link io.snowid.SnowflakeBuilder#nodeSource}
 *     takes it: {@code auto}, {@code static:…} or a lease URI
 * @param token the bearer token every request must carry, or null for none
 * @param stopTimeout how long a graceful stop waits for requests in flight
 * @param backlog how many connections the kernel queues before the server accepts them; Linux caps
 *     it at {@code net.core.somaxconn}
 * @param maxConnections the most connections open at once; at the limit a new connection closes the
 *     oldest one with no request in progress (see {@link #defaultMaxConnections()})
 * @param headerTimeout how long a request may take from its first byte to the end of its headers;
 *     the connection is closed when it takes longer
 * @param idleTimeout how long a connection may stay without reading or writing a byte
 * @param maxReservedAhead how far ahead of the clock the requests waiting for their IDs may reserve
 *     together, as time at the layout's full rate per node; a request beyond it gets 429
 */
public record ServerConfig(
    String bind,
    int port,
    Layout layout,
    String node,
    String token,
    Duration stopTimeout,
    int backlog,
    int maxConnections,
    Duration headerTimeout,
    Duration idleTimeout,
    Duration maxReservedAhead) {

  /** The largest {@code count} of {@code GET /ids}. */
  public static final int MAX_COUNT = 100_000;

  /**
   * The default accept backlog: a burst of thousands of new connections waits in the kernel's queue
   * instead of being dropped (a dropped SYN is retried by the client after a second). Java's own
   * default, 50, is what stalls such a burst.
   */
  public static final int DEFAULT_BACKLOG = 4096;

  /** The largest backlog accepted. */
  public static final int MAX_BACKLOG = 65_535;

  /** The default connection limit, unless half the process's open-file limit is lower. */
  public static final int DEFAULT_MAX_CONNECTIONS = 10_000;

  /** The largest connection limit accepted. */
  public static final int MAX_CONNECTIONS = 1_000_000;

  /** The default time from a request's first byte to the end of its headers. */
  public static final Duration DEFAULT_HEADER_TIMEOUT = Duration.ofSeconds(10);

  /** The default time a connection may stay silent. */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);

  /**
   * The default of {@link #maxReservedAhead()}: a quarter of a second of the node's capacity
   * (1,024,000 IDs in the twitter layout, ten of the largest batches).
   */
  public static final Duration DEFAULT_MAX_RESERVED_AHEAD = Duration.ofMillis(250);

  static final String TOKEN_FORM = "1..512 visible ASCII characters without spaces";

  public ServerConfig {
    if (bind == null || bind.isBlank()) {
      throw new InvalidSettingException("bind", bind, "an IP address or host name");
    }
    if (port < 0 || port > 65_535) {
      throw new InvalidSettingException("port", port, "0..65535");
    }
    if (layout == null) {
      throw new InvalidSettingException("layout", null, "a Layout");
    }
    if (node == null || node.isBlank()) {
      throw new InvalidSettingException("node", node, "auto, static:…, file:DIR or a lease URI");
    }
    if (token != null && token.isBlank()) {
      // Blank is not "no token": a token set by mistake to nothing must not turn auth off.
      throw new InvalidSettingException(
          "token", "(blank)", TOKEN_FORM + "; for no authentication leave it unset");
    }
    if (token != null && !BearerAuth.isValidToken(token)) {
      throw new InvalidSettingException("token", "(hidden)", TOKEN_FORM);
    }
    if (stopTimeout == null
        || stopTimeout.isNegative()
        || stopTimeout.compareTo(Duration.ofMinutes(10)) > 0) {
      throw new InvalidSettingException("stopTimeout", text(stopTimeout), "0s..10m");
    }
    if (backlog < 1 || backlog > MAX_BACKLOG) {
      throw new InvalidSettingException("backlog", backlog, "1.." + MAX_BACKLOG);
    }
    if (maxConnections < 1 || maxConnections > MAX_CONNECTIONS) {
      throw new InvalidSettingException("maxConnections", maxConnections, "1.." + MAX_CONNECTIONS);
    }
    checkDuration("headerTimeout", headerTimeout, Duration.ofMinutes(10));
    checkDuration("idleTimeout", idleTimeout, Duration.ofHours(1));
    checkDuration("maxReservedAhead", maxReservedAhead, Duration.ofMinutes(1));
  }

  private static void checkDuration(String name, Duration value, Duration max) {
    if (value == null || value.compareTo(Duration.ofMillis(1)) < 0 || value.compareTo(max) > 0) {
      throw new InvalidSettingException(name, text(value), "1ms.." + Durations.format(max));
    }
  }

  private static String text(Duration d) {
    return d == null ? "null" : Durations.format(d);
  }

  /**
   * The default connection limit: {@value #DEFAULT_MAX_CONNECTIONS}, or half the process's limit of
   * open files if that is lower (at least 1), so that the server runs out of connections it allows
   * before the process runs out of file descriptors (the lease, logs, JDBC or Redis connections and
   * the JVM's own files need the rest).
   */
  public static int defaultMaxConnections() {
    return defaultMaxConnections(openFileLimit());
  }

  /** The process's limit of open files; -1 where the JVM does not tell. */
  private static long openFileLimit() {
    return ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean unix
        ? unix.getMaxFileDescriptorCount()
        : -1;
  }

  static int defaultMaxConnections(long openFileLimit) {
    if (openFileLimit <= 0) {
      return DEFAULT_MAX_CONNECTIONS; // unknown (not a Unix JVM)
    }
    return (int) Math.max(1, Math.min(DEFAULT_MAX_CONNECTIONS, openFileLimit / 2));
  }

  /**
   * 127.0.0.1:8080, layout {@code twitter}, node from this host's lease directory, no token, 10 s
   * to finish requests on stop, a backlog of {@value #DEFAULT_BACKLOG} connections, at most {@link
   * #defaultMaxConnections()} connections, 10 s for a request's headers, 30 s idle, 250 ms of the
   * node's capacity reserved ahead.
   */
  public static ServerConfig defaults() {
    return new ServerConfig(
        "127.0.0.1",
        8080,
        Layout.twitter(),
        LeaseCoordinators.DEFAULT_FILE_URI,
        null,
        Duration.ofSeconds(10),
        DEFAULT_BACKLOG,
        defaultMaxConnections(),
        DEFAULT_HEADER_TIMEOUT,
        DEFAULT_IDLE_TIMEOUT,
        DEFAULT_MAX_RESERVED_AHEAD);
  }

  public ServerConfig withBind(String value) {
    return new ServerConfig(
        value,
        port,
        layout,
        node,
        token,
        stopTimeout,
        backlog,
        maxConnections,
        headerTimeout,
        idleTimeout,
        maxReservedAhead);
  }

  public ServerConfig withPort(int value) {
    return new ServerConfig(
        bind,
        value,
        layout,
        node,
        token,
        stopTimeout,
        backlog,
        maxConnections,
        headerTimeout,
        idleTimeout,
        maxReservedAhead);
  }

  public ServerConfig withLayout(Layout value) {
    return new ServerConfig(
        bind,
        port,
        value,
        node,
        token,
        stopTimeout,
        backlog,
        maxConnections,
        headerTimeout,
        idleTimeout,
        maxReservedAhead);
  }

  public ServerConfig withNode(String value) {
    return new ServerConfig(
        bind,
        port,
        layout,
        value,
        token,
        stopTimeout,
        backlog,
        maxConnections,
        headerTimeout,
        idleTimeout,
        maxReservedAhead);
  }

  /**
   * The bearer token; null for none. A blank token is refused, not taken for none: a variable set
   * to nothing by mistake must not turn authentication off.
   */
  public ServerConfig withToken(String value) {
    return new ServerConfig(
        bind,
        port,
        layout,
        node,
        value,
        stopTimeout,
        backlog,
        maxConnections,
        headerTimeout,
        idleTimeout,
        maxReservedAhead);
  }

  public ServerConfig withBacklog(int value) {
    return new ServerConfig(
        bind,
        port,
        layout,
        node,
        token,
        stopTimeout,
        value,
        maxConnections,
        headerTimeout,
        idleTimeout,
        maxReservedAhead);
  }

  public ServerConfig withStopTimeout(Duration value) {
    return new ServerConfig(
        bind,
        port,
        layout,
        node,
        token,
        value,
        backlog,
        maxConnections,
        headerTimeout,
        idleTimeout,
        maxReservedAhead);
  }

  /** At most this many connections open at once, 1..{@value #MAX_CONNECTIONS}. */
  public ServerConfig withMaxConnections(int value) {
    return new ServerConfig(
        bind,
        port,
        layout,
        node,
        token,
        stopTimeout,
        backlog,
        value,
        headerTimeout,
        idleTimeout,
        maxReservedAhead);
  }

  /** From a request's first byte to the end of its headers, 1 ms..10 min. */
  public ServerConfig withHeaderTimeout(Duration value) {
    return new ServerConfig(
        bind,
        port,
        layout,
        node,
        token,
        stopTimeout,
        backlog,
        maxConnections,
        value,
        idleTimeout,
        maxReservedAhead);
  }

  /** How long a connection may stay silent, 1 ms..1 h. */
  public ServerConfig withIdleTimeout(Duration value) {
    return new ServerConfig(
        bind,
        port,
        layout,
        node,
        token,
        stopTimeout,
        backlog,
        maxConnections,
        headerTimeout,
        value,
        maxReservedAhead);
  }

  /** How far ahead the waiting requests may reserve together, 1 ms..1 min of the node's rate. */
  public ServerConfig withMaxReservedAhead(Duration value) {
    return new ServerConfig(
        bind,
        port,
        layout,
        node,
        token,
        stopTimeout,
        backlog,
        maxConnections,
        headerTimeout,
        idleTimeout,
        value);
  }

  /** Never prints the token, nor a password of the node source. */
  @Override
  public String toString() {
    return "ServerConfig[bind="
        + bind
        + ", port="
        + port
        + ", layout="
        + layout.spec()
        + ", node="
        + Secrets.scrub(node)
        + ", token="
        + (token == null ? "none" : "(set)")
        + ", stopTimeout="
        + stopTimeout
        + ", backlog="
        + backlog
        + ", maxConnections="
        + maxConnections
        + ", headerTimeout="
        + headerTimeout
        + ", idleTimeout="
        + idleTimeout
        + ", maxReservedAhead="
        + maxReservedAhead
        + "]";
  }
}
