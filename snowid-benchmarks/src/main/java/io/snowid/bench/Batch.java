package io.snowid.bench;

import io.snowid.Snowflake;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link Snowflake#nextIds(long[])} on the default layout, saturated: one operation is one batch,
 * so IDs/s is ops/s times the size. The peers have no batch call.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class Batch {
  private Snowflake snowid;

  /** Each thread's own array, filled in place. */
  @State(Scope.Thread)
  public static class Into {
    @Param({"256", "4096"})
    public int size;

    long[] ids;

    @Setup
    public void setup() {
      ids = new long[size];
    }
  }

  @Setup
  public void setup() {
    snowid = Peers.snowidDefault();
  }

  @Benchmark
  public long[] snowid(Into into) {
    snowid.nextIds(into.ids);
    return into.ids;
  }
}
