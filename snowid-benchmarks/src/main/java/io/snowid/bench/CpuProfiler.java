package io.snowid.bench;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * {@code -prof io.snowid.bench.CpuProfiler}: CPU time spent per operation in each iteration, and
 * the cores it kept busy. Runs inside the fork; two measures:
 *
 * <ul>
 *   <li>{@value #CPU_PER_OP}: the CPU time of every live Java thread (benchmark threads and JMH's
 *       own), from {@code ThreadMXBean}, to the nanosecond.
 *   <li>{@value #PROCESS_CPU_PER_OP}: the whole process ({@code
 *       OperatingSystemMXBean.getProcessCpuTime}: also JIT compiler and GC threads). On Linux the
 *       JDK reads it with {@code times(2)}, in 10 ms clock ticks, so it is coarse for one iteration
 *       of a generator that mostly sleeps; a cross-check.
 * </ul>
 *
 * <p>The bracket is JMH's profiler bracket, from before the benchmark threads start to after they
 * stop, so it is divided by all operations done in it (JMH's "all ops", which include the ones of
 * its synchronization phases), not only the measured ones.
 */
public final class CpuProfiler implements InternalProfiler {
  public static final String CPU_PER_OP = "cpu.ns/op";
  public static final String PROCESS_CPU_PER_OP = "proc.cpu.ns/op";
  public static final String CORES = "cpu.cores";

  private final com.sun.management.OperatingSystemMXBean os =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private final com.sun.management.ThreadMXBean threads =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
  private Map<Long, Long> threadStart = Map.of();
  private long processStart;
  private long wallStart;

  @Override
  public String getDescription() {
    return "CPU time per operation (Java threads, and the whole process) and busy cores";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    wallStart = System.nanoTime();
    processStart = os.getProcessCpuTime();
    threadStart = threadTimes();
  }

  @Override
  public Collection<? extends Result<?>> afterIteration(
      BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
    Map<Long, Long> end = threadTimes();
    long process = os.getProcessCpuTime() - processStart;
    long wall = System.nanoTime() - wallStart;
    long cpu = 0;
    for (Map.Entry<Long, Long> e : end.entrySet()) {
      cpu += e.getValue() - threadStart.getOrDefault(e.getKey(), 0L);
    }
    long ops = Math.max(1, result.getMetadata().getAllOps());
    return List.of(
        new ScalarResult(CPU_PER_OP, (double) cpu / ops, "ns/op", AggregationPolicy.AVG),
        new ScalarResult(
            PROCESS_CPU_PER_OP, (double) process / ops, "ns/op", AggregationPolicy.AVG),
        new ScalarResult(CORES, (double) cpu / wall, "cores", AggregationPolicy.AVG));
  }

  private Map<Long, Long> threadTimes() {
    long[] ids = threads.getAllThreadIds();
    long[] times = threads.getThreadCpuTime(ids);
    Map<Long, Long> m = new HashMap<>();
    for (int i = 0; i < ids.length; i++) {
      if (times[i] >= 0) {
        m.put(ids[i], times[i]);
      }
    }
    return m;
  }
}
