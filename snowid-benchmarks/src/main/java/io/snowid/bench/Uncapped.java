package io.snowid.bench;

import com.github.bingoohuang.westid.WestIdConfig;
import com.github.bingoohuang.westid.WestIdGenerator;
import com.github.yitter.idgen.YitIdHelper;
import io.snowid.DecodedId;
import io.snowid.Layout;
import io.snowid.Snowflake;
import io.snowid.TimeSource;
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
 * The cost of one ID when the sequence is never spent (41/1/21: 2^21 IDs per millisecond), single
 * threaded, next to the floor: one bare read of each clock. Run with {@code -prof gc} for the
 * allocation per operation, including {@link Layout#decode}. hutool has no configurable layout.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class Uncapped {
  private Snowflake snowid;
  private Snowflake snowidWallClock;
  private MillisecondSnowflakeId cosid;
  private WestIdGenerator westid;
  private ClassicIdWorker classic;
  private TimeSource monotonic;
  private Layout layout;
  private long id;

  /** yitter's static generator, configured only in the fork that benchmarks it. */
  @State(Scope.Benchmark)
  public static class Yitter {
    @Setup
    public void setup() {
      Peers.configureYitter((short) 1, Peers.WIDE_WORKER_BITS, Peers.WIDE_SEQUENCE_BITS);
    }
  }

  @Setup
  public void setup() {
    snowid = Peers.snowidWide();
    snowidWallClock = // worker 0: a JVM refuses a second live generator with snowid's values
        Snowflake.builder()
            .layout(Layout.parse(Peers.WIDE_SPEC))
            .node("worker", 0)
            .timeSource(TimeSource.wallClock())
            .build();
    cosid =
        new MillisecondSnowflakeId(
            Peers.TWEPOCH,
            41,
            Peers.WIDE_WORKER_BITS,
            Peers.WIDE_SEQUENCE_BITS,
            1,
            ((1L << Peers.WIDE_SEQUENCE_BITS) - 1) >>> 1);
    westid =
        new WestIdGenerator(
            new WestIdConfig(Peers.TWEPOCH, Peers.WIDE_WORKER_BITS, Peers.WIDE_SEQUENCE_BITS), 1);
    classic =
        new ClassicIdWorker(Peers.TWEPOCH, 1, Peers.WIDE_WORKER_BITS, Peers.WIDE_SEQUENCE_BITS);
    monotonic = TimeSource.monotonic();
    Snowflake defaultGenerator = Peers.snowidDefault();
    layout = defaultGenerator.layout();
    id = defaultGenerator.nextId();
  }

  @Benchmark
  public long snowid() {
    return snowid.nextId();
  }

  /**
   * snowid on the clock the peers read ({@link System#currentTimeMillis()}, no division): the
   * generator's own cost apart from its default time source.
   */
  @Benchmark
  public long snowidWallClock() {
    return snowidWallClock.nextId();
  }

  @Benchmark
  public long cosid() {
    return cosid.generate();
  }

  @Benchmark
  public long westid() {
    return westid.next();
  }

  @Benchmark
  public long yitter(Yitter unused) {
    return YitIdHelper.nextId();
  }

  @Benchmark
  public long classic() {
    return classic.nextId();
  }

  /** Floor: the clock snowid's default (monotonic) time source reads. */
  @Benchmark
  public long nanoTime() {
    return System.nanoTime();
  }

  /** Floor: the clock the peers read. */
  @Benchmark
  public long currentTimeMillis() {
    return System.currentTimeMillis();
  }

  /** snowid's default time source: nanoTime, a subtraction, a division, one compare. */
  @Benchmark
  public long monotonicMillis() {
    return monotonic.millis();
  }

  /** Allocates its result only. */
  @Benchmark
  public DecodedId decode() {
    return layout.decode(id);
  }
}
