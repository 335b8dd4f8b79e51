package io.snowid.spring.boot;

import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * snowid's Micrometer meters ({@link SnowIdMeters}), one set per generator tagged {@code
 * generator=<name>} ({@code default} for the unnamed one), bound by Spring Boot to its registries.
 */
@AutoConfiguration(after = SnowIdGeneratorsAutoConfiguration.class)
@ConditionalOnClass(MeterBinder.class)
@Conditional(SnowIdGeneratorsCondition.class)
public class SnowIdMetricsAutoConfiguration {
  @Bean
  MeterBinder snowIdMeters(SnowIdGenerators generators) {
    return registry -> {
      for (SnowIdGenerators.Entry e : generators.all()) {
        new SnowIdMeters(e.name(), e.snowflake(), e.counted()).bindTo(registry);
      }
    };
  }
}
