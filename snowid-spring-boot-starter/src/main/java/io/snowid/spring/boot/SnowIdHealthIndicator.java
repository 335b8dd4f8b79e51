package io.snowid.spring.boot;

import io.snowid.Snowflake;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/** {@code snowid} in Actuator's health (Spring Boot 4): see {@link HealthReport}. */
final class SnowIdHealthIndicator implements HealthIndicator {
  private final Snowflake snowflake;

  SnowIdHealthIndicator(Snowflake snowflake) {
    this.snowflake = snowflake;
  }

  @Override
  public Health health() {
    HealthReport report = HealthReport.of(snowflake);
    return (report.up() ? Health.up() : Health.down()).withDetails(report.details()).build();
  }
}
