package io.snowid.spring.boot;

import io.snowid.Snowflake;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;

/** {@code snowid} in Actuator's health (Spring Boot 4): see {@link HealthReport}. */
final class SnowIdHealthIndicator implements HealthIndicator {
  private final Snowflake snowflake;

  SnowIdHealthIndicator(Snowflake snowflake) {
    this.snowflake = snowflake;
  }

  /**
   * The indicator of the one generator, or a composite of one indicator per generator (its name the
   * component's) when there are named generators.
   */
  static HealthContributor of(SnowIdGenerators generators) {
    SnowIdGenerators.Entry only = generators.get(GeneratorNames.DEFAULT);
    if (!generators.hasNamed() && only != null) {
      return new SnowIdHealthIndicator(only.snowflake());
    }
    Map<String, HealthContributor> each = new LinkedHashMap<>();
    for (SnowIdGenerators.Entry e : generators.all()) {
      each.put(e.name(), new SnowIdHealthIndicator(e.snowflake()));
    }
    return CompositeHealthContributor.fromMap(each);
  }

  @Override
  public Health health() {
    HealthReport report = HealthReport.of(snowflake);
    return (report.up() ? Health.up() : Health.down()).withDetails(report.details()).build();
  }
}
