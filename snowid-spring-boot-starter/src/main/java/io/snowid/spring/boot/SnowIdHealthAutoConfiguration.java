package io.snowid.spring.boot;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * The {@code snowid} health component (Spring Boot 4's {@code spring-boot-health}): the indicator
 * of the application's one generator, or with {@code snowid.generators} a composite of one per
 * generator ({@code default} and each name); off with {@code
 * management.health.snowid.enabled=false}.
 */
@AutoConfiguration(after = SnowIdGeneratorsAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
@Conditional(SnowIdGeneratorsCondition.class)
@ConditionalOnEnabledHealthIndicator("snowid")
public class SnowIdHealthAutoConfiguration {
  @Bean
  @ConditionalOnMissingBean(name = "snowidHealthIndicator")
  HealthContributor snowidHealthIndicator(SnowIdGenerators generators) {
    return SnowIdHealthIndicator.of(generators);
  }
}
