package io.snowid.bench;

import cn.hutool.core.lang.Snowflake;
import com.github.bingoohuang.westid.WestId;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import me.ahoo.cosid.snowflake.MillisecondSnowflakeId;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Saturated throughput on Twitter's 41/5/5/12 layout: every thread calls the one shared generator
 * as fast as it can, so each generator runs at its cap of 4096 IDs per millisecond and waits for
 * the next millisecond (snowid parks, the peers spin). Run with {@code -t 1} and {@code -t 4}, and
 * {@code -prof io.snowid.bench.CpuProfiler} for the CPU time per ID.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class Capped {
  private io.snowid.Snowflake snowid;
  private Snowflake hutool;
  private MillisecondSnowflakeId cosid;
  private ClassicIdWorker classic;

  @Setup
  public void setup() {
    snowid = Peers.snowidDefault();
    hutool = new Snowflake(1, 1); // twepoch, 5/5/12, System.currentTimeMillis()
    cosid =
        new MillisecondSnowflakeId(
            Peers.TWEPOCH, 41, 10, 12, 1, MillisecondSnowflakeId.DEFAULT_SEQUENCE_RESET_THRESHOLD);
    classic = new ClassicIdWorker(1, 1);
    WestId.configure(1); // 41/10/12 since 2017-03-24; skips its worker id lookup by IP
  }

  @Benchmark
  public long snowid() {
    return snowid.nextId();
  }

  @Benchmark
  public long westid() {
    return WestId.next();
  }

  @Benchmark
  public long hutool() {
    return hutool.nextId();
  }

  @Benchmark
  public long cosid() {
    return cosid.generate();
  }

  @Benchmark
  public long classic() {
    return classic.nextId();
  }

  /** Not capped: for scale. */
  @Benchmark
  public UUID uuid() {
    return UUID.randomUUID();
  }
}
