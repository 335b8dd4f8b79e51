package io.snowid.server;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.snowid.Snowflake;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The service's meters in a Prometheus registry: IDs issued, requests by endpoint and status with a
 * latency histogram, the generator's waits and clock steps, lease renewals and failures, whether
 * the lease is held, years of layout lifetime left, and the JVM's own.
 */
final class ServiceMetrics implements AutoCloseable {
  private static final double SECONDS_PER_YEAR = 365.2425 * 24 * 3600;
  private static final Duration[] BUCKETS = {
    Duration.ofNanos(50_000),
    Duration.ofNanos(100_000),
    Duration.ofNanos(250_000),
    Duration.ofNanos(500_000),
    Duration.ofMillis(1),
    Duration.ofNanos(2_500_000),
    Duration.ofMillis(5),
    Duration.ofMillis(10),
    Duration.ofMillis(25),
    Duration.ofMillis(50),
    Duration.ofMillis(100),
    Duration.ofMillis(250),
    Duration.ofMillis(500),
    Duration.ofSeconds(1),
    Duration.ofMillis(2500),
  };
  private static final int STATUSES = 600;

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Counter issued;
  private final AtomicReferenceArray<Timer> timers =
      new AtomicReferenceArray<>(Endpoint.values().length * STATUSES);
  private final JvmGcMetrics gc = new JvmGcMetrics();

  ServiceMetrics(Snowflake generator) {
    issued =
        Counter.builder("snowid.ids.issued").description("IDs issued over HTTP").register(registry);
    FunctionCounter.builder("snowid.generator.waits", generator, Snowflake::waitCount)
        .description("Calls that waited for the next time unit (sequence spent or clock step)")
        .register(registry);
    FunctionCounter.builder("snowid.clock.steps", generator, Snowflake::clockStepCount)
        .description("Times the time source was seen stepping back")
        .register(registry);
    FunctionCounter.builder("snowid.lease.renewals", generator, g -> g.nodeStatus().renewals())
        .description("Successful renewals of the node id lease")
        .register(registry);
    FunctionCounter.builder(
            "snowid.lease.renewal.failures", generator, g -> g.nodeStatus().renewalFailures())
        .description("Failed renewals of the node id lease")
        .register(registry);
    Gauge.builder("snowid.lease.held", generator, g -> g.nodeStatus().held() ? 1 : 0)
        .description("1 while the node id lease is held and IDs are issued, else 0")
        .register(registry);
    Gauge.builder(
            "snowid.layout.lifetime.remaining",
            generator,
            g -> g.remainingLifetime().toSeconds() / SECONDS_PER_YEAR)
        .description("Years until the layout's last valid instant")
        .baseUnit("years")
        .register(registry);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    gc.bindTo(registry);
  }

  void issued(long count) {
    issued.increment((double) count);
  }

  void record(Endpoint endpoint, int status, long nanos) {
    int s = status >= 100 && status < STATUSES ? status : 500;
    @SuppressWarnings("EnumOrdinal") // a dense table index, rebuilt with the enum in one process
    int index = endpoint.ordinal() * STATUSES + s;
    Timer timer = timers.get(index);
    if (timer == null) {
      timer =
          Timer.builder("snowid.http.requests")
              .description("HTTP requests by endpoint and status, and how long they took")
              .tag("endpoint", endpoint.tag)
              .tag("status", Integer.toString(s))
              .serviceLevelObjectives(BUCKETS)
              .register(registry);
      timers.set(index, timer); // registering twice returns the same meter
    }
    timer.record(nanos, TimeUnit.NANOSECONDS);
  }

  /** The Prometheus text format (0.0.4). */
  String scrape() {
    return registry.scrape();
  }

  @Override
  public void close() {
    gc.close();
    registry.close();
  }
}
