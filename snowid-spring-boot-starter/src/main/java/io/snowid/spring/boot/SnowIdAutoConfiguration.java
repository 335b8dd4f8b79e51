package io.snowid.spring.boot;

import io.snowid.IdGenerator;
import io.snowid.Snowflake;
import java.util.List;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

/**
 * snowid's generator as beans: a {@link Snowflake} built from the {@code snowid.*} properties, and
 * the primary {@link IdGenerator} ({@link CountedIdGenerator}) over it. Backs off when the
 * application defines an {@code IdGenerator} of its own (health and meters still follow a {@code
 * Snowflake} bean of the application's).
 */
@AutoConfiguration(after = SnowIdConnectionsAutoConfiguration.class)
@ConditionalOnProperty(
    prefix = "snowid",
    name = "enabled",
    havingValue = "true",
    matchIfMissing = true)
@EnableConfigurationProperties(SnowIdProperties.class)
public class SnowIdAutoConfiguration {
  /** The generator's beans, unless the application has an IdGenerator. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnMissingBean(IdGenerator.class)
  static class Generator {
    /**
     * The generator and its lease; the application's connections ({@link LeaseConnection}) are
     * parameters so that the context closes this before them.
     */
    @Bean(destroyMethod = "close")
    SnowIdNode snowIdNode(SnowIdProperties properties, List<LeaseConnection> connections) {
      return SnowIdNode.start(properties, connections);
    }

    @Bean(destroyMethod = "close")
    Snowflake snowflake(SnowIdNode node) {
      return node.snowflake();
    }

    @Bean
    @Primary
    CountedIdGenerator snowIdGenerator(Snowflake snowflake) {
      return new CountedIdGenerator(snowflake);
    }
  }
}
