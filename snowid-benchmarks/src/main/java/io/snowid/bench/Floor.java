package io.snowid.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The floor under any generator in which every caller reads the clock and takes its position from
 * one shared word with one atomic instruction: {@code System.nanoTime()} plus one {@code
 * getAndIncrement()} of a shared {@link AtomicLong}, nothing else. Run with {@code -t 1} and {@code
 * -t 4} and {@code -prof io.snowid.bench.CpuProfiler}: at 4 threads on 2 cores the word moves
 * between the cores, and the CPU per operation is what that costs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class Floor {
  private final AtomicLong word = new AtomicLong();

  @Benchmark
  public long clockAndAdd() {
    return System.nanoTime() + word.getAndIncrement();
  }
}
