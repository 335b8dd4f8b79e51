package io.snowid.bench;

import com.github.yitter.contract.IdGeneratorOptions;
import com.github.yitter.idgen.YitIdHelper;
import io.snowid.Layout;
import io.snowid.Snowflake;

/**
 * How every generator is configured, in one place, so that the benchmarks compare like with like.
 */
final class Peers {
  /** Twitter's epoch, 2010-11-04T01:42:54.657Z. */
  static final long TWEPOCH = 1288834974657L;

  /** IDs per second one generator of a 12-bit sequence can issue: 4096 per millisecond. */
  static final double CAP = 4_096_000d;

  /** A layout whose sequence no benchmark thread can spend within one millisecond (2^21). */
  static final String WIDE_SPEC = "time=41,worker=1,sequence=21,epoch=2010-11-04T01:42:54.657Z";

  static final int WIDE_WORKER_BITS = 1;
  static final int WIDE_SEQUENCE_BITS = 21;

  private Peers() {}

  /** snowid's default: 41/5/5/12, monotonic time source, no lead. */
  static Snowflake snowidDefault() {
    return Snowflake.builder().node("datacenter", 1).node("worker", 1).build();
  }

  static Snowflake snowidWide() {
    return Snowflake.builder().layout(Layout.parse(WIDE_SPEC)).node("worker", 1).build();
  }

  /**
   * yitter's generator is a static singleton: one configuration per JVM (JMH forks per benchmark
   * and per parameter value). Method 1 is its "drift" algorithm (borrows future milliseconds when a
   * sequence is spent), method 2 the traditional one (spins to the next millisecond). Sequence
   * numbers 0..4 are reserved by yitter (MinSeqNumber 5), so its cap is 4091 per millisecond.
   */
  static void configureYitter(short method, int workerBits, int sequenceBits) {
    IdGeneratorOptions options = new IdGeneratorOptions((short) 1);
    options.Method = method;
    options.WorkerIdBitLength = (byte) workerBits;
    options.SeqBitLength = (byte) sequenceBits;
    YitIdHelper.setIdGenerator(options);
  }
}
