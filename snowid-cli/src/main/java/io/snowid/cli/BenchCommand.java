package io.snowid.cli;

import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import io.snowid.Snowflake;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
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
      description =
          "Threads calling nextId(), 1..256 (env SNOWID_THREADS; default ${DEFAULT-VALUE}).")
  int threads;

  @Option(
      names = {"-s", "--seconds"},
      paramLabel = "S",
      defaultValue = "${env:SNOWID_SECONDS:-3}",
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
    if (threads < 1 || threads > 256) {
      throw new InvalidSettingException("threads", threads, "1..256");
    }
    if (seconds < 1 || seconds > 600) {
      throw new InvalidSettingException("seconds", seconds, "1..600");
    }
    Layout l = layout.get();
    Logs.configure(verbose);
    Snowflake.Builder builder = Snowflake.builder().layout(l);
    for (Layout.Field f : l.nodeFields()) {
      builder.node(f.name(), 0);
    }
    @SuppressWarnings("SystemConsoleNull") // Java 17: null exactly when not on a terminal
    boolean showProgress = progress != null ? progress : System.console() != null;
    Result r;
    try (Snowflake generator = builder.build()) {
      r = new Run(generator, threads).measure(seconds * 1000L, showProgress ? err() : null);
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
    out.flush();
  }

  record Result(long ids, double seconds, long cpuNanos, long waits) {}

  /** The worker threads: each counts its IDs and, if the JVM can, its CPU time. */
  static final class Run {
    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
    private static final long WARMUP_NANOS = 500_000_000L;

    private final Snowflake generator;
    private final int threads;
    private volatile boolean measuring;
    private volatile boolean done;
    private final long[] counts;
    private final long[] cpu;
    private final long[] sinks;

    Run(Snowflake generator, int threads) {
      this.generator = generator;
      this.threads = threads;
      this.counts = new long[threads * 16]; // one cache line apart
      this.cpu = new long[threads];
      this.sinks = new long[threads];
    }

    Result measure(long millis, PrintWriter progress) throws InterruptedException {
      boolean cpuTime = MX.isCurrentThreadCpuTimeSupported();
      Thread[] workers = new Thread[threads];
      for (int i = 0; i < threads; i++) {
        int slot = i;
        workers[i] =
            new Thread(
                () -> {
                  long n = 0;
                  long sink = 0;
                  while (!measuring) {
                    sink ^= generator.nextId();
                  }
                  long cpu0 = cpuTime ? MX.getCurrentThreadCpuTime() : 0;
                  while (!done) {
                    for (int k = 0; k < 1024; k++) {
                      sink ^= generator.nextId();
                    }
                    n += 1024;
                    counts[slot * 16] = n;
                  }
                  cpu[slot] = cpuTime ? MX.getCurrentThreadCpuTime() - cpu0 : -1;
                  sinks[slot] = sink;
                },
                "snowid-bench-" + i);
        workers[i].setDaemon(true);
        workers[i].start();
      }
      Thread.sleep(WARMUP_NANOS / 1_000_000);
      long waits0 = generator.waitCount();
      long t0 = System.nanoTime();
      measuring = true;
      long end = t0 + millis * 1_000_000L;
      for (long now = System.nanoTime(); now < end; now = System.nanoTime()) {
        Thread.sleep(Math.min(250, Math.max(1, (end - now) / 1_000_000)));
        if (progress != null) {
          double elapsed = (System.nanoTime() - t0) / 1e9;
          progress.printf(
              Locale.ROOT,
              "\rbench: %.1f / %d s  %s IDs/s   ",
              elapsed,
              millis / 1000,
              LayoutCommand.group(Math.round(total() / elapsed)));
          progress.flush();
        }
      }
      done = true;
      long t1 = System.nanoTime();
      for (Thread w : workers) {
        w.join();
      }
      if (progress != null) {
        progress.print("\r" + " ".repeat(60) + "\r");
        progress.flush();
      }
      long cpuNanos = 0;
      for (long c : cpu) {
        cpuNanos = c < 0 || cpuNanos < 0 ? -1 : cpuNanos + c;
      }
      return new Result(total(), (t1 - t0) / 1e9, cpuNanos, generator.waitCount() - waits0);
    }

    private long total() {
      long sum = 0;
      for (int i = 0; i < threads; i++) {
        sum += counts[i * 16];
      }
      return sum;
    }
  }
}
