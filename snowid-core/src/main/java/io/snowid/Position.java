package io.snowid;

/**
 * The encoding of a generator's position for one {@link Layout}: which bits of the one long hold
 * the clockback count, the tick and the sequence, how a reading of the time source becomes a tick,
 * and how an ID is composed from a position. Immutable and stateless; the hot path calls the small
 * methods here, which the JIT inlines (the class is final).
 */
final class Position {
  private static final long NANOS_PER_MILLI = 1_000_000L;

  /**
   * How far behind the source a generator at full load goes on issuing the ticks it was not running
   * in (Snowflake, "Catch-up"): the time in such an ID lags the source by less than this.
   */
  static final long CATCH_UP_MILLIS = 10;

  /*
   * A position is (clockback | tick | sequence), highest bits first, so positions order exactly as
   * the IDs composed from them, and the next position is position + 1: a spent sequence carries
   * into the tick by plain addition, with no branch.
   *
   * The tick inside the position has one spare bit above the largest tick, so a carry out of the
   * last tick shows as "tick > maxTick" instead of wrapping into the clockback bits.
   *
   * (clockback, tick), the position without its sequence, is a "reading": it grows with the time
   * source's readings, a clockback step included. ClockStepGuard keeps the highest one seen.
   */
  private final long epochMillis;
  private final long unitMillis;
  private final long epochNanos;
  private final long unitNanos;
  private final long lastNanoTick; // the last tick that ends within long nanoseconds; -1: none
  private final long catchUpTicks; // how many ticks behind the source a catch-up may go on
  private final long maxTick;
  private final int seqBits;
  private final long seqMask;
  private final long spreadMask;
  private final int tickBits;
  private final long tickMask;
  private final int cbShift;
  private final long cbMax;
  private final long cbMask;
  private final int idTimeShift;
  private final int idSeqShift;
  private final int idCbShift;

  Position(Layout layout) {
    this.epochMillis = layout.epochMillis();
    this.unitMillis = layout.unitMillis();
    this.maxTick = layout.maxTime();
    Layout.Field seq = layout.sequenceField();
    this.seqBits = seq.bits();
    this.seqMask = seq.max();
    this.spreadMask = seqMask >>> 1;
    this.tickBits = 64 - Long.numberOfLeadingZeros(maxTick) + 1; // one spare bit for the carry
    this.tickMask = (1L << tickBits) - 1;
    this.cbShift = Math.min(63, seqBits + tickBits);
    this.cbMax = layout.clockbackField().map(Layout.Field::max).orElse(0L);
    this.cbMask = cbMax << cbShift;
    this.idTimeShift = layout.timeField().shift();
    this.idSeqShift = seq.shift();
    this.idCbShift = layout.clockbackField().map(Layout.Field::shift).orElse(0);
    this.unitNanos = unitMillis * NANOS_PER_MILLI; // a unit is at most a day
    // the lag stays below (catchUpTicks + 1) units <= CATCH_UP_MILLIS: none for units of 10 ms up
    this.catchUpTicks = Math.max(0, CATCH_UP_MILLIS / unitMillis - 1);
    long epochNs;
    long lastTick;
    try {
      epochNs = Math.multiplyExact(epochMillis, NANOS_PER_MILLI);
      // floor((MAX - unit - epoch) / unit), one less at most: ticks up to it end by Long.MAX_VALUE
      lastTick =
          epochNs == Long.MIN_VALUE
              ? -1
              : Math.floorDiv(Long.MAX_VALUE - unitNanos, unitNanos)
                  - Math.floorDiv(epochNs, unitNanos)
                  - 1;
    } catch (ArithmeticException e) { // an epoch before 1677: no tick is checked in nanoseconds
      epochNs = 0;
      lastTick = -1;
    }
    this.epochNanos = epochNs;
    this.lastNanoTick = lastTick;
  }

  /*
   * inTick is exact. For a tick up to lastNanoTick, its start S = epochNanos + tick * unitNanos and
   * its end S + unitNanos fit in a long, so the difference unixNanos - S, taken modulo 2^64 as Java
   * computes it, lies in [0, unitNanos) exactly when the true difference does: a true difference
   * of -2^64 + r would need unixNanos below S + unitNanos - 2^64, which is below Long.MIN_VALUE.
   * A tick beyond lastNanoTick (centuries ahead of 2262, or a layout with an epoch before 1677)
   * answers false, and the caller decides in ticks.
   */

  /**
   * Whether a reading of the time source in Unix nanoseconds falls within {@code tick}: the
   * reading's tick is {@code tick}, found with a multiplication that does not wait for the clock
   * and no division. False when the tick cannot be checked in nanoseconds.
   */
  boolean inTick(long unixNanos, long tick) {
    return tick <= lastNanoTick
        && Long.compareUnsigned(unixNanos - epochNanos - tick * unitNanos, unitNanos) < 0;
  }

  /**
   * Unix milliseconds in Unix nanoseconds, saturated at {@link Long#MIN_VALUE} and {@link
   * Long#MAX_VALUE} outside what a long of nanoseconds holds (1677 to 2262).
   */
  static long nanosOf(long millis) {
    long n = millis * NANOS_PER_MILLI;
    if (Math.multiplyHigh(millis, NANOS_PER_MILLI) != (n >> 63)) {
      return millis < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return n;
  }

  /** The tick of a reading in Unix nanoseconds, unless saturated (see {@link #nanosOf}). */
  long tickAtNanos(long unixNanos) {
    return tickAt(Math.floorDiv(unixNanos, NANOS_PER_MILLI));
  }

  /** The tick of a reading of the time source (Unix ms): whole time units since the epoch. */
  long tickAt(long millis) {
    long sinceEpoch = millis - epochMillis;
    return unitMillis == 1 ? sinceEpoch : Math.floorDiv(sinceEpoch, unitMillis);
  }

  /** The Unix millisecond at which {@code tick} begins. */
  long millisAt(long tick) {
    return epochMillis + tick * unitMillis;
  }

  long unitMillis() {
    return unitMillis;
  }

  /** The layout's last tick; a position past it is never issued. */
  long maxTick() {
    return maxTick;
  }

  /** The largest clockback count the layout holds (0 without a clockback field). */
  long maxClockback() {
    return cbMax;
  }

  /** The tick of {@code position}, the spare bit included. */
  long tick(long position) {
    return (position >>> seqBits) & tickMask;
  }

  /** The clockback count of {@code position}. */
  long clockback(long position) {
    return (position >>> cbShift) & cbMax;
  }

  /** The clockback bits of {@code position}, in place: what a run within one count keeps. */
  long clockbackPart(long position) {
    return position & cbMask;
  }

  /** The clockback part one step after {@code clockbackPart}. */
  long nextClockback(long clockbackPart) {
    return clockbackPart + (1L << cbShift);
  }

  /**
   * The tick of a position whose clockback part is {@code clockbackPart}, not masked: the tick of a
   * run's last position that carried past the spare bit still compares greater than {@link
   * #maxTick()}.
   */
  long tickAbove(long clockbackPart, long position) {
    return (position - clockbackPart) >>> seqBits;
  }

  /** The position at {@code tick} and {@code sequence}, with the given clockback part. */
  long positionAt(long clockbackPart, long tick, long sequence) {
    return clockbackPart | (tick << seqBits) | sequence;
  }

  /**
   * Whether the position after {@code s}, in tick {@code t} behind the source's tick {@code now},
   * is issued late rather than skipped for a fresh start at {@code now}: {@code t} lies less than
   * {@link #CATCH_UP_MILLIS} behind the source, and the generator is at full load: the tick of
   * {@code s} is {@code fullLoadTick}, the latest tick entered by carry (its predecessor spent).
   */
  boolean catchesUp(long s, long t, long now, long fullLoadTick) {
    return now - t <= catchUpTicks && tick(s) == fullLoadTick;
  }

  /** Whether {@code position} is the first of its tick, at sequence 0. */
  boolean startsTick(long position) {
    return (position & seqMask) == 0;
  }

  /** Whether more than half of the tick of {@code position} was used up to it. */
  boolean busy(long position) {
    return (position & seqMask) > spreadMask;
  }

  /** A first sequence below half the range, from random bits. */
  long spread(long randomBits) {
    return randomBits & spreadMask;
  }

  /** (clockback, tick) of {@code position}: grows with the readings of the time source. */
  long reading(long position) {
    return position >>> seqBits;
  }

  /** The tick of a {@linkplain #reading reading}. */
  long readingTick(long reading) {
    return reading & tickMask;
  }

  /** The clockback count of a {@linkplain #reading reading}. */
  long readingClockback(long reading) {
    return reading >>> tickBits;
  }

  /** The ID of {@code position} under the node field bits {@code nodeBits}. */
  long compose(long nodeBits, long position) {
    return nodeBits
        | ((position >>> seqBits) & tickMask) << idTimeShift
        | ((position >>> cbShift) & cbMax) << idCbShift
        | (position & seqMask) << idSeqShift;
  }
}
