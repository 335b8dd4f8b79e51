package io.snowid;

import io.snowid.codec.IdCodec;
import io.snowid.node.LeaseCoordinators;

/**
 * Zero-configuration access to one process-wide generator: {@code long id = SnowId.next();}.
 *
 * <p>The generator is built on first use with the layout named by the system property {@code
 * snowid.layout} or the environment variable {@code SNOWID_LAYOUT} (a preset or a spec; default
 * {@code twitter}), and node values from {@code snowid.node} / {@code SNOWID_NODE} (see {@link
 * Snowflake.Builder#nodeSource}; default: the {@code worker} field leased from this host's lease
 * directory {@link LeaseCoordinators#DEFAULT_FILE_URI}, so processes on one host never share it,
 * the other node fields from {@link io.snowid.node.NodeIdChain#standard()}). The lease is released
 * when the JVM exits.
 */
public final class SnowId {
  private SnowId() {}

  private static final class Holder {
    static final Snowflake GENERATOR = build();

    private static Snowflake build() {
      String layout = setting("snowid.layout", "SNOWID_LAYOUT");
      String node = setting("snowid.node", "SNOWID_NODE");
      Layout l = layout == null ? Layout.twitter() : Layout.preset(layout);
      return Snowflake.builder()
          .layout(l)
          .nodeSource(node == null ? LeaseCoordinators.DEFAULT_FILE_URI : node)
          .build();
    }

    static String setting(String property, String env) {
      return setting(property, env, null);
    }

    static String setting(String property, String env, String fallback) {
      String v = System.getProperty(property, System.getenv(env));
      return v == null || v.isBlank() ? fallback : v.trim();
    }
  }

  /** The next ID of the process-wide generator. */
  public static long next() {
    return Holder.GENERATOR.nextId();
  }

  /**
   * The next ID of the process-wide generator in the named text form ({@code decimal}, {@code hex},
   * {@code base32}, {@code base32check}, {@code base36}, {@code base62}, {@code base62-legacy},
   * {@code base64url}; any case).
   *
   * @throws InvalidSettingException for an unknown format, before an ID is taken
   */
  public static String nextString(String format) {
    IdCodec codec = IdCodec.named(format);
    return codec.encode(next());
  }

  private static final class Js53Holder {
    static final Snowflake GENERATOR =
        Snowflake.builder()
            .layout(Layout.preset("js53"))
            .nodeSource(
                Holder.setting("snowid.node", "SNOWID_NODE", LeaseCoordinators.DEFAULT_FILE_URI))
            .build();
  }

  /**
   * The next ID of a process-wide generator on the {@code js53} layout: every ID it can issue until
   * its last instant (2093) is below 2^53, so it is exact as a JavaScript number.
   */
  public static long nextJs53() {
    return Js53Holder.GENERATOR.nextId();
  }

  /** The process-wide generator. */
  public static Snowflake generator() {
    return Holder.GENERATOR;
  }

  /** Decodes an ID of the process-wide generator's layout. */
  public static DecodedId decode(long id) {
    return Holder.GENERATOR.layout().decode(id);
  }
}
