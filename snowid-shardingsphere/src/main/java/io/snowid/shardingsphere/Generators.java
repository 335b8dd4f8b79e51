package io.snowid.shardingsphere;

import io.snowid.Snowflake;
import java.util.HashMap;
import java.util.Map;

/**
 * The generators of this JVM's {@code SNOWID} key generators, one per distinct set of properties.
 * ShardingSphere makes several algorithm instances of one configuration (a check, the rule, each
 * reload of the rule) and closes none: one generator each would hold a lease each, renewed until
 * exit. So equal properties share one generator, built at the first {@code init} and closed by a
 * JVM shutdown hook, which releases its lease (docs/design.md, "ShardingSphere").
 */
final class Generators {
  private static final Map<Map<String, String>, Snowflake> BUILT = new HashMap<>();

  private Generators() {}

  /**
   * The generator of {@code settings}, built now if this JVM has none for equal properties.
   *
   * @throws io.snowid.SnowIdException if it cannot be built (nothing is kept: the next call tries
   *     again)
   */
  static synchronized Snowflake shared(Settings settings) {
    Snowflake g = BUILT.get(settings.key());
    if (g == null) {
      g = settings.builder().build();
      Runtime.getRuntime().addShutdownHook(new Thread(g::close, "snowid-release"));
      BUILT.put(settings.key(), g);
    }
    return g;
  }
}
