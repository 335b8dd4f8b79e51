package io.snowid.shardingsphere;

import io.snowid.SnowIdException;
import io.snowid.Snowflake;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import org.apache.shardingsphere.infra.algorithm.core.context.AlgorithmSQLContext;
import org.apache.shardingsphere.infra.algorithm.core.exception.AlgorithmInitializationException;
import org.apache.shardingsphere.infra.algorithm.keygen.core.KeyGenerateAlgorithm;

/**
 * The key generator {@code type: SNOWID} of ShardingSphere-JDBC: Snowflake IDs from a snowid
 * generator for the key column of sharded tables. Its properties ({@code node}, {@code layout},
 * {@code clock-source}, {@code clock-policy}, {@code max-wait}, {@code max-lead}, {@code
 * fields.<field>}) are those of {@link Snowflake#builder()}; docs/shardingsphere.md lists them.
 *
 * <p>{@link #init} builds the generator, so a wrong property or a coordinator out of reach fails
 * ShardingSphere's start with an {@link AlgorithmInitializationException} whose message is snowid's
 * (naming the property, its allowed values, the near miss), with snowid's exception suppressed in
 * it. Every algorithm of one JVM with the same properties shares one generator, which a JVM
 * shutdown hook closes (ShardingSphere 5.5 closes no key generator): docs/design.md,
 * "ShardingSphere".
 */
public final class SnowIdKeyGenerateAlgorithm implements KeyGenerateAlgorithm {
  /** The {@code type} of the algorithm in ShardingSphere's configuration. */
  public static final String TYPE = "SNOWID";

  private Snowflake generator;

  @Override
  public void init(Properties props) {
    try {
      generator = Generators.shared(Settings.of(props));
    } catch (SnowIdException e) {
      AlgorithmInitializationException refused =
          new AlgorithmInitializationException(this, "%s", e.getMessage());
      refused.addSuppressed(e); // its cause is set (null) by ShardingSphere's constructor
      throw refused;
    }
  }

  /**
   * {@code count} new IDs, increasing.
   *
   * @throws IllegalStateException before {@link #init}
   * @throws SnowIdException as {@link Snowflake#nextIds(long[])} (a lease lost, a clock step the
   *     policy refuses)
   */
  @Override
  public Collection<Long> generateKeys(AlgorithmSQLContext context, int count) {
    if (generator == null) {
      throw new IllegalStateException(TYPE + " key generator used before init(Properties)");
    }
    long[] ids = new long[count];
    generator.nextIds(ids);
    List<Long> keys = new ArrayList<>(count);
    for (long id : ids) {
      keys.add(id);
    }
    return keys;
  }

  @Override
  public String getType() {
    return TYPE;
  }
}
