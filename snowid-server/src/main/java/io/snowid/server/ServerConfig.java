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
 * @param layout a preset name or a layout spec
 * @param node where the node values come from: {@code auto}, {@code static:…} or a lease URI
 * @param token the bearer token every request must carry, or null for none
 * @param stopTimeout how long a graceful stop waits for requests in flight
 * @param helloWorld serve a constant {@code hello} on every path instead of IDs: the ceiling that
 *     {@code bench/http.sh} compares {@code GET /id} with, on the same stack
 */
public record ServerConfig(
    String bind,
    int port,
    String layout,
    String node,
    String token,
    Duration stopTimeout,
    boolean helloWorld) {

  /** The largest {@code count} of {@code GET /ids}. */
  public static final int MAX_COUNT = 100_000;

  public ServerConfig {
    if (bind == null || bind.isBlank()) {
      throw new InvalidSettingException("bind", bind, "an IP address or host name");
    }
    if (port < 0 || port > 65_535) {
      throw new InvalidSettingException("port", port, "0..65535");
    }
    if (layout == null || layout.isBlank()) {
      throw new InvalidSettingException("layout", layout, "a preset " + Layout.presetNames());
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
        "twitter",
        LeaseCoordinators.DEFAULT_FILE_URI,
        null,
        Duration.ofSeconds(10),
        false);
  }

  public ServerConfig withBind(String value) {
    return new ServerConfig(value, port, layout, node, token, stopTimeout, helloWorld);
  }

  public ServerConfig withPort(int value) {
    return new ServerConfig(bind, value, layout, node, token, stopTimeout, helloWorld);
  }

  public ServerConfig withLayout(String value) {
    return new ServerConfig(bind, port, value, node, token, stopTimeout, helloWorld);
  }

  public ServerConfig withNode(String value) {
    return new ServerConfig(bind, port, layout, value, token, stopTimeout, helloWorld);
  }

  /** The bearer token; null or blank for none. */
  public ServerConfig withToken(String value) {
    String t = value == null || value.isBlank() ? null : value;
    return new ServerConfig(bind, port, layout, node, t, stopTimeout, helloWorld);
  }

  public ServerConfig withStopTimeout(Duration value) {
    return new ServerConfig(bind, port, layout, node, token, value, helloWorld);
  }

  public ServerConfig withHelloWorld(boolean value) {
    return new ServerConfig(bind, port, layout, node, token, stopTimeout, value);
  }

  /** Never prints the token. */
  @Override
  public String toString() {
    return "ServerConfig[bind="
        + bind
        + ", port="
        + port
        + ", layout="
        + layout
        + ", node="
        + node
        + ", token="
        + (token == null ? "none" : "(set)")
        + ", stopTimeout="
        + stopTimeout
        + (helloWorld ? ", helloWorld" : "")
        + "]";
  }
}
