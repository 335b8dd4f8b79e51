package io.snowid;

import io.snowid.node.NodeStatus;
import java.time.Duration;
import java.time.Instant;

/**
 * The 32-bit ID of westid's QrSceneId, for systems that take a positive {@code int} (a QR code's
 * scene value, a legacy INT column): 21 bits of milliseconds modulo 2^21, 5 bits worker, 5 bits
 * sequence. Every ID is positive and never 0.
 *
 * <p><b>Uniqueness holds only within the wrap window</b> of 2^21 ms (34 min 57.152 s, {@link
 * #wrapWindow()}): an ID issued now may be issued again that long later. Use it only where IDs
 * expire before that (westid's case: temporary QR codes), and decode with a reference time inside
 * the window. Within the window the IDs of one generator are unique and increasing; 32 workers
 * issue at most 32,000 IDs/s each. At full load an ID may carry a time up to 10 ms before it was
 * issued ({@link Snowflake}'s catch-up), so its next issue may come up to 10 ms less than the
 * window after it, in real time.
 */
public final class Int32Generator implements AutoCloseable {
  /*
   * The generator is a Snowflake on a 62-bit layout whose low 31 bits are exactly the int32
   * layout: time=52 above worker=5 and sequence=5. Its IDs are unique and increasing, so their low
   * 31 bits are unique within any 2^21 ms, and every guarantee of Snowflake (clock safety,
   * parking, leases, fencing) carries over. An ID whose low bits are all zero is skipped.
   */
  private static final long LOW_31 = 0x7FFF_FFFFL;
  private static final Layout WIDE =
      Layout.parse("time=52,worker=5,sequence=5,epoch=1970-01-01T00:00:00Z");
  private static final Layout INT32 = Layout.preset("int32");

  private final Snowflake wide;

  private Int32Generator(Snowflake wide) {
    this.wide = wide;
  }

  /**
   * A generator for a fixed worker (0..31).
   *
   * @throws InvalidSettingException if the worker does not fit 5 bits
   */
  public static Int32Generator forWorker(long worker) {
    return new Int32Generator(Snowflake.builder().layout(WIDE).node("worker", worker).build());
  }

  /**
   * A generator whose worker comes from a node source (see {@link SnowflakeBuilder#nodeSource}).
   */
  public static Int32Generator fromNodeSource(String nodeSource) {
    return new Int32Generator(Snowflake.builder().layout(WIDE).nodeSource(nodeSource).build());
  }

  /** A generator on a time source of your choice, e.g. a manual clock in tests. */
  public static Int32Generator forWorker(long worker, TimeSource time) {
    return new Int32Generator(
        Snowflake.builder().layout(WIDE).node("worker", worker).timeSource(time).build());
  }

  /** The next ID: positive, never 0, unique among this worker's IDs of the last wrap window. */
  public int nextInt() {
    for (; ; ) {
      int id = (int) (wide.nextId() & LOW_31);
      if (id != 0) {
        return id;
      }
    }
  }

  /** The {@code int32} layout of the IDs. */
  public Layout layout() {
    return INT32;
  }

  /** How long until IDs repeat: 2^21 ms, 34 min 57.152 s. */
  public Duration wrapWindow() {
    return INT32.wrapWindow();
  }

  /** Decodes an ID issued within one wrap window before {@code reference}. */
  public static DecodedId decode(int id, Instant reference) {
    return INT32.decode(id, reference);
  }

  public NodeStatus nodeStatus() {
    return wide.nodeStatus();
  }

  @Override
  public void close() {
    wide.close();
  }
}
