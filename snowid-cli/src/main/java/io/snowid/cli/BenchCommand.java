package io.snowid.cli;

import io.snowid.Layout;
import io.snowid.Snowflake;
import io.snowid.SnowflakeBuilder;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code snowid bench}: this machine's throughput against the layout's cap. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Measure how many IDs per second one generator issues here, as a fraction of the layout's"
          + " cap (sequence capacity per time unit).",
      "Uses fixed node values in memory: no lease is taken and no ID leaves the process."
    })
final class BenchCommand extends SnowIdSubcommand {
  private static final double SECONDS_PER_YEAR = 365.2425 * 24 * 3600;

  @Mixin LayoutOption layout;

  @Option(
      names = {"-t", "--threads"},
      paramLabel = "T",
      defaultValue = "${env:SNOWID_THREADS:-1}",
      converter = Ranged.Threads.class,
      description =
          "Threads calling nextId(), 1..256 (env SNOWID_THREADS; default ${DEFAULT-VALUE}).")
  int threads;

  @Option(
      names = {"-s", "--seconds"},
      paramLabel = "S",
      defaultValue = "${env:SNOWID_SECONDS:-3}",
      converter = Ranged.Seconds.class,
      description =
          "How long to measure, after 0.5 s of warm-up, 1..600 (env SNOWID_SECONDS;"
              + " default ${DEFAULT-VALUE}).")
  int seconds;

  @Option(
      names = "--progress",
      negatable = true,
      defaultValue = "${env:SNOWID_PROGRESS}",
      description =
          "A progress line on stderr while it runs (env SNOWID_PROGRESS; default: when stderr is"
              + " a terminal).")
  Boolean progress;

  @Override
  public Integer call() throws InterruptedException {
    Layout l = layout.forGenerating();
    Logs.configure(verbose, verbose);
    SnowflakeBuilder builder = Snowflake.builder().layout(l);
    for (Layout.Field f : l.nodeFields()) {
      builder.node(f.name(), 0);
    }
    @SuppressWarnings("SystemConsoleNull") // Java 17: null exactly when not on a terminal
    boolean showProgress = progress != null ? progress : System.console() != null;
    Result r;
    try (Snowflake generator = builder.build();
        Run run = new Run(generator::nextId, generator::waitCount, threads, Run.Clock.SYSTEM)) {
      r = run.measure(seconds * 1000L, showProgress ? err() : null);
    }
    print(l, r);
    return 0;
  }

  private void print(Layout l, Result r) {
    PrintWriter out = out();
    double cap = l.idsPerSecondPerNode();
    double rate = r.ids / r.seconds;
    out.println("layout        " + l.spec());
    out.println("threads       " + threads);
    out.printf(Locale.ROOT, "measured      %.2f s (after 0.5 s warm-up)%n", r.seconds);
    out.println("IDs           " + LayoutCommand.group(r.ids));
    out.println("IDs/s         " + LayoutCommand.group(Math.round(rate)));
    out.println("cap           " + LayoutCommand.group(Math.round(cap)) + " IDs/s per node");
    out.printf(Locale.ROOT, "of the cap    %.4f%n", rate / cap);
    if (r.cpuNanos >= 0 && r.ids > 0) {
      out.printf(
          Locale.ROOT, "CPU           %.3f s per million IDs%n", r.cpuNanos / 1e9 / (r.ids / 1e6));
    }
    out.println(
        "waits         " + LayoutCommand.group(r.waits) + " (calls that parked for a tick)");
    double years = l.remainingLifetime(java.time.Instant.now()).toSeconds() / SECONDS_PER_YEAR;
    out.printf(Locale.ROOT, "years left    %.1f%n", years);
    flushOut();
  }

  record Result(long ids, double seconds, long cpuNanos, long waits) {}

  /**
   * The worker threads, each calling {@code nextId()} and counting its IDs. The window is measured
   * from outside: at its start and at its end the measuring thread reads every worker's count and
   * CPU time, so IDs issued before the start or after the end never count (counts taken after the
   * workers stopped would include whole blocks finished after the end time, and many threads would
   * report more than the cap).
   */
  static final class Run implements AutoCloseable {
    /** How often a worker publishes its count: the error at each end of the window, per thread. */
    static final int BLOCK = 64;

    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
    private static final long WARMUP_MILLIS = 500;

    /** The measuring thread's clock and sleep: the system's, or a test's. */
    interface Clock {
      Clock SYSTEM =
          new Clock() {
            @Override
            public long nanoTime() {
              return System.nanoTime();
            }

            @Override
            public void sleepMillis(long millis) throws InterruptedException {
              Thread.sleep(millis);
            }
          };

      long nanoTime();

      void sleepMillis(long millis) throws InterruptedException;
    }

    private final LongSupplier ids;
    private final LongSupplier waits;
    private final Clock clock;
    private final Thread[] workers;
    private final AtomicLongArray counts; // per worker, 16 longs (a cache line) apart
    private final long[] sinks;
    private volatile boolean done;

    Run(LongSupplier ids, LongSupplier waits, int threads, Clock clock) {
      this.ids = ids;
      this.waits = waits;
      this.clock = clock;
      this.workers = new Thread[threads];
      this.counts = new AtomicLongArray(threads * 16);
      this.sinks = new long[threads];
    }

    Result measure(long millis, PrintWriter progress) throws InterruptedException {
      for (int i = 0; i < workers.length; i++) {
        int slot = i;
        workers[i] =
            new Thread(
                () -> {
                  long n = 0;
                  long sink = 0;
                  while (!done) {
                    for (int k = 0; k < BLOCK; k++) {
                      sink ^= ids.getAsLong();
                    }
                    n += BLOCK;
                    counts.lazySet(slot * 16, n); // a release store: no fence on the hot path
                  }
                  sinks[slot] = sink; // the IDs are used: the calls cannot be optimized away
                },
                "snowid-bench-" + i);
        workers[i].setDaemon(true);
        workers[i].start();
      }
      clock.sleepMillis(WARMUP_MILLIS);
      long waits0 = waits.getAsLong();
      long cpu0 = cpu();
      long ids0 = total();
      long t0 = clock.nanoTime();
      long end = t0 + millis * 1_000_000L;
      for (long now = clock.nanoTime(); now < end; now = clock.nanoTime()) {
        clock.sleepMillis(Math.min(250, Math.max(1, (end - now) / 1_000_000)));
        if (progress != null) {
          double elapsed = (clock.nanoTime() - t0) / 1e9;
          progress.printf(
              Locale.ROOT,
              "\rbench: %.1f / %d s  %s IDs/s   ",
              elapsed,
              millis / 1000,
              LayoutCommand.group(Math.round((total() - ids0) / elapsed)));
          progress.flush();
        }
      }
      long ids1 = total();
      long t1 = clock.nanoTime();
      long cpu1 = cpu();
      long waits1 = waits.getAsLong();
      if (progress != null) {
        progress.print("\r" + " ".repeat(60) + "\r");
        progress.flush();
      }
      long cpuNanos = cpu0 < 0 || cpu1 < 0 ? -1 : cpu1 - cpu0;
      return new Result(ids1 - ids0, (t1 - t0) / 1e9, cpuNanos, waits1 - waits0);
    }

    /** The workers' CPU time so far; -1 if the JVM cannot tell. */
    private long cpu() {
      if (!MX.isThreadCpuTimeSupported()) {
        return -1;
      }
      long sum = 0;
      for (Thread w : workers) {
        long c = MX.getThreadCpuTime(w.getId());
        if (c < 0) {
          return -1;
        }
        sum += c;
      }
      return sum;
    }

    private long total() {
      long sum = 0;
      for (int i = 0; i < workers.length; i++) {
        sum += counts.get(i * 16);
      }
      return sum;
    }

    /** Stops the workers and waits for them (an interrupt is kept for the caller). */
    @Override
    public void close() {
      done = true;
      boolean interrupted = false;
      for (Thread w : workers) {
        while (w != null && w.isAlive()) {
          try {
            w.join();
          } catch (InterruptedException e) {
            interrupted = true;
          }
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
