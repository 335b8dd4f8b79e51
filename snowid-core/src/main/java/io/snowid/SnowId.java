package io.snowid;

import io.snowid.codec.IdCodec;
import io.snowid.node.NodeIdChain;
import java.util.Map;

/**
 * Zero-configuration access to one process-wide generator: {@code long id = SnowId.next();}.
 *
 * <p>The generator is built on first use with the layout named by the system property {@code
 * snowid.layout} or the environment variable {@code SNOWID_LAYOUT} (a preset or a spec; default
 * {@code twitter}) and node field values from {@link NodeIdChain#standard()}.
 */
public final class SnowId {
  private SnowId() {}

  private static final class Holder {
    static final Snowflake GENERATOR = build();

    private static Snowflake build() {
      String layout = System.getProperty("snowid.layout", System.getenv("SNOWID_LAYOUT"));
      Layout l = layout == null || layout.isBlank() ? Layout.twitter() : Layout.preset(layout);
      return Snowflake.builder()
          .layout(l)
          .node(NodeIdChain.standard().resolve(l, Map.of()))
          .build();
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

  /** The process-wide generator. */
  public static Snowflake generator() {
    return Holder.GENERATOR;
  }

  /** Decodes an ID of the process-wide generator's layout. */
  public static DecodedId decode(long id) {
    return Holder.GENERATOR.layout().decode(id);
  }
}
