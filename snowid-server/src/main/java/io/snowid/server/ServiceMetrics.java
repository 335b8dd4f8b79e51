package io.snowid.server;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.snowid.Layout;
import io.snowid.Snowflake;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The service's meters in a Prometheus registry: IDs issued, requests by endpoint and status with a
 * latency histogram (requests Jetty refused before routing included), the generator's waits and
 * clock steps, lease renewals and failures, whether the lease is held and until when, the node
 * values, years of layout lifetime left, the build, the HTTP threads and connections, the IDs
 * reserved ahead and the connection limit at work, open files, and the JVM's own.
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
            "snowid.lease.valid.until",
            generator,
            g -> {
              Instant until = g.nodeStatus().validUntil();
              return until == null ? Double.NaN : until.toEpochMilli() / 1000.0;
            })
        .description(
            "Until when IDs may be issued under the current lease (Unix seconds); NaN without one")
        .baseUnit("seconds")
        .register(registry);
    for (Layout.Field f : generator.layout().nodeFields()) {
      Gauge.builder(
              "snowid.node.value",
              generator,
              g -> {
                Long v = g.node().get(f.name());
                return v == null ? Double.NaN : v;
              })
          .description("The value of each node field in the IDs issued now; NaN while none")
          .tag("field", f.name())
          .register(registry);
    }
    Gauge.builder("snowid.build.info", () -> 1)
        .description("The running snowid: version, layout and Java runtime (value always 1)")
        .tag("version", version())
        .tag("layout", generator.layout().spec())
        .tag("java", Runtime.version().toString())
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
    new FileDescriptorMetrics().bindTo(registry);
    gc.bindTo(registry);
  }

  /** The HTTP server's threads, connections and requests in flight. */
  void bindHttp(QueuedThreadPool pool, ServerConnector connector, InFlight inFlight) {
    Gauge.builder("snowid.http.requests.in.flight", inFlight, InFlight::current)
        .description("Requests taken whose response is not complete yet (a scrape counts itself)")
        .register(registry);
    Gauge.builder("snowid.http.threads", pool, QueuedThreadPool::getBusyThreads)
        .description("Threads of the HTTP pool, busy (serving or waiting) or idle")
        .tag("state", "busy")
        .register(registry);
    Gauge.builder("snowid.http.threads", pool, QueuedThreadPool::getIdleThreads)
        .description("Threads of the HTTP pool, busy (serving or waiting) or idle")
        .tag("state", "idle")
        .register(registry);
    Gauge.builder("snowid.http.threads.max", pool, QueuedThreadPool::getMaxThreads)
        .description("The most threads the HTTP pool starts")
        .register(registry);
    Gauge.builder("snowid.http.queued.jobs", pool, QueuedThreadPool::getQueueSize)
        .description("Jobs waiting for a thread of the HTTP pool")
        .register(registry);
    Gauge.builder("snowid.http.connections", connector, c -> c.getConnectedEndPoints().size())
        .description("Open HTTP connections")
        .register(registry);
  }

  /** The cap on IDs reserved ahead, and the connection limit and header timeout at work. */
  void bindLimits(ReservedAhead reservedAhead, Unsent unsent, ConnectionGuard guard) {
    Gauge.builder("snowid.http.reserved.ahead", reservedAhead, ReservedAhead::taken)
        .description(
            "IDs reserved by requests still waiting for their time (0 when none waits); a request"
                + " that would take it past snowid_http_reserved_ahead_max gets 429")
        .register(registry);
    Gauge.builder("snowid.http.reserved.ahead.max", reservedAhead, ReservedAhead::cap)
        .description("The most IDs the waiting requests may reserve together")
        .register(registry);
    Gauge.builder("snowid.http.unsent.bytes", unsent, Unsent::taken)
        .description(
            "Bytes of /ids responses not yet written to their clients; a batch that would take it"
                + " past snowid_http_unsent_bytes_max gets 429")
        .register(registry);
    Gauge.builder("snowid.http.unsent.bytes.max", unsent, Unsent::cap)
        .description("The most bytes of responses that may wait to be sent")
        .register(registry);
    Gauge.builder("snowid.http.connections.max", guard, ConnectionGuard::max)
        .description("The connection limit")
        .register(registry);
    String closed = "HTTP connections the server closed, by reason";
    FunctionCounter.builder("snowid.http.connections.closed", guard, ConnectionGuard::evicted)
        .description(closed)
        .tag("reason", "limit-oldest-idle")
        .register(registry);
    FunctionCounter.builder(
            "snowid.http.connections.closed", guard, ConnectionGuard::evictedWriting)
        .description(closed)
        .tag("reason", "limit-oldest-writing")
        .register(registry);
    FunctionCounter.builder("snowid.http.connections.closed", guard, ConnectionGuard::refused)
        .description(closed)
        .tag("reason", "limit-all-busy")
        .register(registry);
    FunctionCounter.builder(
            "snowid.http.connections.closed", guard, ConnectionGuard::headerTimeouts)
        .description(closed)
        .tag("reason", "header-timeout")
        .register(registry);
  }

  /** The version of this build, from build.properties; "unknown" if it is missing. */
  static String version() {
    try (InputStream in = ServiceMetrics.class.getResourceAsStream("build.properties")) {
      if (in != null) {
        Properties p = new Properties();
        p.load(in);
        return p.getProperty("version", "unknown");
      }
    } catch (IOException e) {
      // unknown
    }
    return "unknown";
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
