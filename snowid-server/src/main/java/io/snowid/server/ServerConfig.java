package io.snowid.server;

import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import io.snowid.lease.LeaseCoordinators;
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
 */
public record ServerConfig(
    String bind, int port, Layout layout, String node, String token, Duration stopTimeout) {

  /** The largest {@code count} of {@code GET /ids}. */
  public static final int MAX_COUNT = 100_000;

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
    if (token != null && !BearerAuth.isValidToken(token)) {
      throw new InvalidSettingException(
          "token", "(hidden)", "1..512 visible ASCII characters without spaces");
    }
    if (stopTimeout == null
        || stopTimeout.isNegative()
        || stopTimeout.compareTo(Duration.ofMinutes(10)) > 0) {
      throw new InvalidSettingException("stopTimeout", stopTimeout, "PT0S..PT10M");
    }
  }

  /**
   * 127.0.0.1:8080, layout {@code twitter}, node from this host's lease directory, no token, 10 s
   * to finish requests on stop.
   */
  public static ServerConfig defaults() {
    return new ServerConfig(
        "127.0.0.1",
        8080,
        Layout.twitter(),
        LeaseCoordinators.DEFAULT_FILE_URI,
        null,
        Duration.ofSeconds(10));
  }

  public ServerConfig withBind(String value) {
    return new ServerConfig(value, port, layout, node, token, stopTimeout);
  }

  public ServerConfig withPort(int value) {
    return new ServerConfig(bind, value, layout, node, token, stopTimeout);
  }

  public ServerConfig withLayout(Layout value) {
    return new ServerConfig(bind, port, value, node, token, stopTimeout);
  }

  public ServerConfig withNode(String value) {
    return new ServerConfig(bind, port, layout, value, token, stopTimeout);
  }

  /** The bearer token; null or blank for none. */
  public ServerConfig withToken(String value) {
    String t = value == null || value.isBlank() ? null : value;
    return new ServerConfig(bind, port, layout, node, t, stopTimeout);
  }

  public ServerConfig withStopTimeout(Duration value) {
    return new ServerConfig(bind, port, layout, node, token, value);
  }

  /** Never prints the token. */
  @Override
  public String toString() {
    return "ServerConfig[bind="
        + bind
        + ", port="
        + port
        + ", layout="
        + layout.spec()
        + ", node="
        + node
        + ", token="
        + (token == null ? "none" : "(set)")
        + ", stopTimeout="
        + stopTimeout
        + "]";
  }
}
