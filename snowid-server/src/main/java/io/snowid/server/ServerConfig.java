package io.snowid.server;

import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import io.snowid.lease.LeaseCoordinators;
import io.snowid.lease.Secrets;
import java.time.Duration;

/**
 * Settings of a {@link SnowIdServer}. Immutable; every {@code with…} method validates its value and
 * returns a copy.
 *
 * @param bind the address to listen on; {@code 127.0.0.1} unless told otherwise
 * @param port the TCP port; 0 picks a free one (see {@link SnowIdServer#port()})
 * @param layout the layout of the IDs issued, and of those {@code GET /decode} reads by default
 * @param node where the node values come from, as {@link io.snowid.Snowflake.Builder#nodeSource}
 *     takes it: {@code auto}, {@code static:…} or a lease URI
 * @param token the bearer token every request must carry, or null for none
 * @param stopTimeout how long a graceful stop waits for requests in flight
 * @param backlog how many connections the kernel queues before the server accepts them; Linux caps
 *     it at {@code net.core.somaxconn}
 */
public record ServerConfig(
    String bind,
    int port,
    Layout layout,
    String node,
    String token,
    Duration stopTimeout,
    int backlog) {

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
      throw new InvalidSettingException("stopTimeout", stopTimeout, "PT0S..PT10M");
    }
    if (backlog < 1 || backlog > MAX_BACKLOG) {
      throw new InvalidSettingException("backlog", backlog, "1.." + MAX_BACKLOG);
    }
  }

  /**
   * 127.0.0.1:8080, layout {@code twitter}, node from this host's lease directory, no token, 10 s
   * to finish requests on stop, a backlog of {@value #DEFAULT_BACKLOG} connections.
   */
  public static ServerConfig defaults() {
    return new ServerConfig(
        "127.0.0.1",
        8080,
        Layout.twitter(),
        LeaseCoordinators.DEFAULT_FILE_URI,
        null,
        Duration.ofSeconds(10),
        DEFAULT_BACKLOG);
  }

  public ServerConfig withBind(String value) {
    return new ServerConfig(value, port, layout, node, token, stopTimeout, backlog);
  }

  public ServerConfig withPort(int value) {
    return new ServerConfig(bind, value, layout, node, token, stopTimeout, backlog);
  }

  public ServerConfig withLayout(Layout value) {
    return new ServerConfig(bind, port, value, node, token, stopTimeout, backlog);
  }

  public ServerConfig withNode(String value) {
    return new ServerConfig(bind, port, layout, value, token, stopTimeout, backlog);
  }

  /**
   * The bearer token; null for none. A blank token is refused, not taken for none: a variable set
   * to nothing by mistake must not turn authentication off.
   */
  public ServerConfig withToken(String value) {
    return new ServerConfig(bind, port, layout, node, value, stopTimeout, backlog);
  }

  public ServerConfig withBacklog(int value) {
    return new ServerConfig(bind, port, layout, node, token, stopTimeout, value);
  }

  public ServerConfig withStopTimeout(Duration value) {
    return new ServerConfig(bind, port, layout, node, token, value, backlog);
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
        + "]";
  }
}
