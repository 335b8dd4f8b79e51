package io.snowid.spring.boot;

import io.micrometer.core.instrument.binder.MeterBinder;
import io.snowid.Snowflake;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;

/** snowid's Micrometer meters ({@link SnowIdMeters}), bound by Spring Boot to its registries. */
@AutoConfiguration(after = SnowIdAutoConfiguration.class)
@ConditionalOnClass(MeterBinder.class)
@ConditionalOnSingleCandidate(Snowflake.class)
public class SnowIdMetricsAutoConfiguration {
  @Bean
  MeterBinder snowIdMeters(Snowflake snowflake, ObjectProvider<CountedIdGenerator> counted) {
    return new SnowIdMeters(snowflake, counted.getIfUnique());
  }
}
