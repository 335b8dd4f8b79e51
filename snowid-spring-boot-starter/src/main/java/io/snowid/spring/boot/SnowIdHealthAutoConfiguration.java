package io.snowid.spring.boot;

import io.snowid.Snowflake;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The {@code snowid} health indicator (Spring Boot 4's {@code spring-boot-health}), for the
 * application's one {@link Snowflake}; off with {@code management.health.snowid.enabled=false}.
 */
@AutoConfiguration(after = SnowIdAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
@ConditionalOnSingleCandidate(Snowflake.class)
@ConditionalOnEnabledHealthIndicator("snowid")
public class SnowIdHealthAutoConfiguration {
  @Bean
  @ConditionalOnMissingBean(name = "snowidHealthIndicator")
  SnowIdHealthIndicator snowidHealthIndicator(Snowflake snowflake) {
    return new SnowIdHealthIndicator(snowflake);
  }
}
