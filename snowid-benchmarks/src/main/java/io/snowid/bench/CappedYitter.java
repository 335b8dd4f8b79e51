package io.snowid.bench;

import com.github.yitter.idgen.YitIdHelper;
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
 * As {@link Capped}, for yitter (WorkerIdBitLength 10, SeqBitLength 12). Its generator is static,
 * so each method runs in a fork of its own, which JMH does for every parameter value.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class CappedYitter {
  @Param({"1", "2"})
  public short method;

  @Setup
  public void setup() {
    Peers.configureYitter(method, 10, 12);
  }

  @Benchmark
  public long yitter() {
    return YitIdHelper.nextId();
  }
}
