package io.snowid.spring.boot;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * The {@code snowid} Actuator endpoint ({@link SnowIdEndpoint}), when it is exposed ({@code
 * management.endpoints.web.exposure.include=snowid}). The same on Spring Boot 4 and 3.5.
 */
@AutoConfiguration(after = SnowIdGeneratorsAutoConfiguration.class)
@ConditionalOnClass(
    name = {
      "org.springframework.boot.actuate.endpoint.annotation.Endpoint",
      "org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint"
    })
@Conditional(SnowIdGeneratorsCondition.class)
public class SnowIdEndpointAutoConfiguration {
  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnAvailableEndpoint(endpoint = SnowIdEndpoint.class)
  SnowIdEndpoint snowIdEndpoint(SnowIdGenerators generators) {
    return new SnowIdEndpoint(generators);
  }
}
