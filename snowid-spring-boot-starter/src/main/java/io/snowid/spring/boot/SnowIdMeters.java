package io.snowid.spring.boot;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.snowid.Snowflake;

/**
 * snowid's meters, with the names {@code snowid serve} uses: IDs issued (through the starter's
 * {@code IdGenerator} bean), calls that waited, clock steps, lease renewals and failures, whether
 * the lease is held, and years of layout lifetime left; each tagged {@code generator=<name>}.
 */
final class SnowIdMeters implements MeterBinder {
  private static final double SECONDS_PER_YEAR = 365.2425 * 24 * 3600;

  private final Tags tags;
  private final Snowflake generator;
  private final CountedIdGenerator counted; // null: the application's own IdGenerator

  SnowIdMeters(String name, Snowflake generator, CountedIdGenerator counted) {
    this.tags = Tags.of("generator", name);
    this.generator = generator;
    this.counted = counted;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    if (counted != null) {
      FunctionCounter.builder("snowid.ids.issued", counted, CountedIdGenerator::issued)
          .description("IDs issued through the IdGenerator bean")
          .tags(tags)
          .register(registry);
    }
    FunctionCounter.builder("snowid.generator.waits", generator, Snowflake::waitCount)
        .description("Calls that waited for the next time unit (sequence spent or clock step)")
        .tags(tags)
        .register(registry);
    FunctionCounter.builder("snowid.clock.steps", generator, Snowflake::clockStepCount)
        .description("Times the time source was seen stepping back")
        .tags(tags)
        .register(registry);
    FunctionCounter.builder("snowid.lease.renewals", generator, g -> g.nodeStatus().renewals())
        .description("Successful renewals of the node id lease")
        .tags(tags)
        .register(registry);
    FunctionCounter.builder(
            "snowid.lease.renewal.failures", generator, g -> g.nodeStatus().renewalFailures())
        .description("Failed renewals of the node id lease")
        .tags(tags)
        .register(registry);
    Gauge.builder("snowid.lease.held", generator, g -> g.nodeStatus().held() ? 1 : 0)
        .description("1 while the node id lease is held and IDs are issued, else 0")
        .tags(tags)
        .register(registry);
    Gauge.builder(
            "snowid.layout.lifetime.remaining",
            generator,
            g -> g.remainingLifetime().toSeconds() / SECONDS_PER_YEAR)
        .description("Years until the layout's last valid instant")
        .baseUnit("years")
        .tags(tags)
        .register(registry);
  }
}
