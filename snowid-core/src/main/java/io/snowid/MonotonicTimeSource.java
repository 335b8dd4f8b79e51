package io.snowid;

import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Wall clock at start plus monotonic elapsed time; moved forward (never back) to the wall clock
 * when the wall clock is ahead, and slowed to {@link #SLEW_RATE} of real time while it is behind,
 * until the two meet again.
 */
final class MonotonicTimeSource implements TimeSource {
  /*
   * millis = (nanoTime - origin) / 1e6, where origin = nanoTime - wall * 1e6 at the start. The
   * subtraction is exact in two's complement even when origin overflows, until the year 2262.
   *
   * Once a second of its own time, a read also reads the wall clock (a resync). If the wall clock
   * is ahead (a forward NTP step, a resumed VM whose monotonic clock stood still), the origin moves
   * so that this source jumps forward to it. It never moves back by itself: a step backwards of
   * the wall clock is not followed, which is what makes this source clock-safe.
   *
   * Slewing. Not following a step back alone would leave this source ahead of the wall clock for
   * good after a forward step that NTP corrects: it jumps forward to the wrong time and keeps it,
   * and ahead by more than a lease coordinator's allowed skew it fails every renewal's skew check,
   * an outage until restart. So, while it reads ahead of the wall clock by more than
   * SLEW_ABOVE_MILLIS (the wall clock's granularity on some systems, and NTP's own slewing: a drift
   * of a few milliseconds starts nothing), it runs at SLEW_RATE of real time, 0.9, losing 100 ms a
   * second, until it has lost exactly the lead it measured; then it runs at rate 1 again. It never
   * goes back and never runs slower than that rate, so IDs stay monotonic, and a lease deadline
   * counted in this source's time still falls before the registry's expiry in real time (see
   * SLEW_RATE). A leased generator that the registry fences for skew while the source is ahead
   * does not wait for the slew: it rejoins the wall clock (below); one that cannot (a source shared
   * by several generators) stays fenced until the slew brings it within the skew, (step - skew) /
   * 0.1 seconds.
   * The lead is measured from a reading taken before the wall clock's, so it is never overstated (a
   * thread descheduled between the two reads makes it look smaller), and a slew never takes the
   * source below the wall clock by more than a read's rounding; a jump forward compares the wall
   * clock with a reading taken after it, so it never overshoots either. Every resync while slewing
   * measures the lead again and starts the slew over from there: a wall clock that steps again
   * meanwhile is followed (forward) or slewed to (back). The tolerance decides only whether a slew
   * starts: one under way goes on until the source met the wall clock (to within a read's
   * rounding), so that it does not stay up to the tolerance ahead.
   *
   * Reads. The hot path is one volatile read of nextResync, one of origin and one nanoTime, in
   * nanoseconds (unixNanos(); millis() divides it), so that the generator checks its time unit with
   * no division (Snowflake.tryNextId). unixNanos() is package-private on purpose: the generator
   * trusts it as this source's own reading, which a method of a user's TimeSource need not be. Due
   * points saturate at Long.MAX_VALUE (2262: no resync is due after it); the division rounds down,
   * so millis() is floorDiv(unixNanos(), 10^6) also before 1970. While slewing, nextResync is
   * Long.MIN_VALUE: every read takes slewRead(), which reads an immutable Slew (one more volatile
   * read, no lock) and goes to the synchronized resync only when a check is due. Each state (the
   * origin at rate 1 below nextResync; a Slew below its checkAt and before its end) is used by a
   * reader only up to its due point, because a reader reads the state before the clock (nextResync,
   * then origin, then nanoTime: the volatile reads order the clock's read after them; an origin
   * read after the clock could be one published by a slew that ended meanwhile, and with the
   * earlier clock reading would read back by the slew), and a state changes only in a resync at or
   * after its due point, to a function that reads the same there (a slew starts from the reading at
   * that point; it ends where it has lost its whole lead, or is folded into the origin at that
   * point) or more (a jump forward). So a reader holding a state that has just been replaced reads
   * no more than the new state does at any later time: the source never goes back, also across
   * threads. The writes are ordered for that: nextResync = MIN before a slew is published; slew =
   * null and the new origin before nextResync is set again.
   *
   * Rejoining. The one way this source goes back: rejoin() puts it on the wall clock at once when it
   * reads ahead of it beyond SLEW_ABOVE_MILLIS, for a leased generator that is the source's only
   * user and that the registry fenced because this source runs ahead of the registry's clock
   * (docs/design.md section 4, "Rejoining the wall clock"). A reader that read the state before it
   * may still return a reading from before; the generator's fence and its position make that
   * harmless, which is why only it may call rejoin().
   */
  private static final System.Logger LOG = System.getLogger("io.snowid");

  private static final long NANOS_PER_MILLI = 1_000_000L;
  private static final long RESYNC_EVERY_MILLIS = 1_000L;

  /**
   * While ahead of the wall clock this source loses one nanosecond in every SLEW_DIVISOR it runs:
   * it runs at {@link #SLEW_RATE} = 1 - 1 / SLEW_DIVISOR = 0.9 of real time.
   */
  static final long SLEW_DIVISOR = 10;

  /**
   * The rate of this source, against real time, while it is ahead of the wall clock: 0.9, its
   * slowest. A lease holder counts its deadline in this source's time from before it sent the
   * request, {@code sent + ttl - margin}, and the registry expires the lease {@code ttl} after it
   * received it, in real time; at rate r the holder reaches its deadline after {@code (ttl -
   * margin) / r} of real time, before the expiry for any r above {@code (ttl - margin) / ttl}. The
   * holder's margin is at least ttl / 5 ({@code LeaseHolder}), so the rate must stay above {@link
   * #LEASE_SAFE_RATE} = 0.8.
   */
  static final double SLEW_RATE = 1 - 1.0 / SLEW_DIVISOR;

  /** {@code (ttl - margin) / ttl} for the smallest margin a lease holder uses (ttl / 5). */
  static final double LEASE_SAFE_RATE = 0.8;

  /**
   * A lead over the wall clock up to this is left alone: the wall clock's granularity (coarse on
   * some systems) and NTP's slewing of it. A larger lead is slewed away in full.
   */
  static final long SLEW_ABOVE_MILLIS = 20;

  /** The most one slew takes back (a year): SLEW_DIVISOR times it cannot overflow. */
  private static final long MAX_SLEW_NANOS = 365L * 24 * 3600 * 1_000_000_000L;

  private final Ticker ticker;
  // generators reading this source: rejoin() needs one; a counter of its own, so that the cleaner
  // of a generator never closed can give its use back without holding this source (or its ticker)
  private final AtomicInteger users = new AtomicInteger();
  private volatile long origin;
  private volatile long nextResync; // Unix ns; Long.MIN_VALUE while slewing: reads take slewRead()
  private volatile Slew slew; // null unless slewing

  /**
   * A slew: from nanoTime {@code from} the source, {@code (nanoTime - origin)} at rate 1, loses one
   * nanosecond in {@link #SLEW_DIVISOR} until it has lost {@code loss}; a resync is due once it
   * reads {@code checkAt} (Unix nanoseconds) or has lost it all.
   */
  private record Slew(long origin, long from, long loss, long checkAt) {
    long lostAt(long nanoTime) {
      long ran = nanoTime - from;
      return ran <= 0 ? 0 : ran >= loss * SLEW_DIVISOR ? loss : ran / SLEW_DIVISOR;
    }

    /** This source's reading at {@code nanoTime}, in Unix nanoseconds. */
    long nanosAt(long nanoTime) {
      return nanoTime - origin - lostAt(nanoTime);
    }

    boolean over(long nanoTime) {
      return nanoTime - from >= loss * SLEW_DIVISOR;
    }

    /** The earliest nanoTime at which this slew reads {@code target} Unix nanoseconds. */
    long nanoTimeWhen(long target) {
      long beyondFrom = target - (from - origin);
      if (beyondFrom <= 0) {
        return target + origin;
      }
      if (beyondFrom <= loss * (SLEW_DIVISOR - 1)) {
        return from + Math.floorDiv(beyondFrom * SLEW_DIVISOR + SLEW_DIVISOR - 2, SLEW_DIVISOR - 1);
      }
      return target + origin + loss;
    }
  }

  MonotonicTimeSource(Ticker ticker) {
    this.ticker = ticker;
    long wall = ticker.wallMillis();
    this.origin = ticker.nanoTime() - wall * NANOS_PER_MILLI;
    this.nextResync = Position.nanosOf(wall + RESYNC_EVERY_MILLIS);
  }

  @Override
  public long millis() {
    return Math.floorDiv(unixNanos(), NANOS_PER_MILLI);
  }

  /** This source's reading in Unix nanoseconds: {@link #millis()} is its floor in milliseconds. */
  long unixNanos() {
    long next = nextResync; // the state, then the clock (see Reads)
    long o = origin;
    long n = ticker.nanoTime() - o;
    return n < next ? n : slewRead();
  }

  /** A read while slewing, or a resync that is due; in Unix nanoseconds. */
  private long slewRead() {
    Slew s = slew;
    if (s != null) {
      long t = ticker.nanoTime();
      long n = s.nanosAt(t);
      if (n < s.checkAt && !s.over(t)) {
        return n;
      }
    }
    return resync();
  }

  /** Resyncs with the wall clock if due (see Slewing); returns a reading in Unix nanoseconds. */
  private synchronized long resync() {
    Slew s = slew;
    long before = ticker.nanoTime();
    long n = nanosAt(s, before);
    if (s == null ? n < nextResync : n < s.checkAt && !s.over(before)) {
      return n; // another thread resynced meanwhile
    }
    long m = Math.floorDiv(n, NANOS_PER_MILLI);
    // The wall clock between two readings of this source, under the lock: the lead is measured
    // from the one before, a jump forward made from the one after, so that a thread descheduled
    // between them makes neither go too far.
    long wall = ticker.wallMillis();
    long after = ticker.nanoTime();
    long readingNanos = nanosAt(s, after);
    long reading = Math.floorDiv(readingNanos, NANOS_PER_MILLI);
    long current = s == null ? origin : s.origin + s.lostAt(after); // rate-1 origin at `after`
    if (wall > reading) {
      long jumped = current - (wall - reading) * NANOS_PER_MILLI;
      publish(jumped, Position.nanosOf(wall + RESYNC_EVERY_MILLIS));
      return after - jumped; // in the millisecond `wall`
    }
    long ahead = m - wall;
    // A slew starts only beyond the tolerance, and one under way goes on until it met the clock.
    if (ahead > (s == null || s.over(after) ? SLEW_ABOVE_MILLIS : 0)) {
      nextResync = Long.MIN_VALUE; // first: no reader uses the origin at rate 1 from here
      slew =
          new Slew(
              current,
              after,
              Math.min(ahead * NANOS_PER_MILLI, MAX_SLEW_NANOS),
              Position.nanosOf(reading + RESYNC_EVERY_MILLIS));
      if (s == null) {
        LOG.log(
            Level.INFO,
            "snowid time source is {0} ms ahead of the wall clock; running at {1} of real time"
                + " until it meets it",
            ahead,
            SLEW_RATE);
      }
      return readingNanos;
    }
    publish(current, Position.nanosOf(reading + RESYNC_EVERY_MILLIS));
    return readingNanos;
  }

  /** The count of generators reading this source: each adds one, and takes it away when closed. */
  AtomicInteger users() {
    return users;
  }

  /**
   * Follows the wall clock back at once, if this source reads ahead of it by more than {@link
   * #SLEW_ABOVE_MILLIS} and exactly one generator uses it (see Rejoining); returns whether it went
   * back. {@code fence} runs first, only then: the generator fences itself so that it issues
   * nothing on readings from before.
   */
  synchronized boolean rejoin(Runnable fence) {
    if (users.get() != 1) {
      return false;
    }
    Slew s = slew;
    long before = ticker.nanoTime();
    long reading = Math.floorDiv(nanosAt(s, before), NANOS_PER_MILLI);
    long wall = ticker.wallMillis();
    if (reading - wall <= SLEW_ABOVE_MILLIS) {
      return false;
    }
    fence.run();
    long after = ticker.nanoTime();
    publish(after - wall * NANOS_PER_MILLI, Position.nanosOf(wall + RESYNC_EVERY_MILLIS));
    LOG.log(
        Level.INFO,
        "snowid time source rejoined the wall clock: it read {0} ms ahead of it",
        reading - wall);
    return true;
  }

  /** Runs at rate 1 from {@code newOrigin}: the slew and origin first, nextResync last. */
  private void publish(long newOrigin, long next) {
    slew = null;
    origin = newOrigin;
    nextResync = next;
  }

  private long nanosAt(Slew s, long nanoTime) {
    return s == null ? nanoTime - origin : s.nanosAt(nanoTime);
  }

  @Override
  public long nanoTime() {
    return ticker.nanoTime();
  }

  @Override
  public long awaitMillis(long target) {
    boolean interrupted = false;
    long now;
    while ((now = millis()) < target) {
      // The time until the source reads target, at its current rate: a park may end early (a
      // slew that ends, a resync that starts one), and the loop reads the source again.
      ticker.parkNanos(Math.max(nanosUntil(target), 1));
      interrupted |= Thread.interrupted();
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return now;
  }

  /** How long, by nanoTime, until this source reads {@code target} if its rate stays as it is. */
  private long nanosUntil(long target) {
    long targetNanos = target * NANOS_PER_MILLI;
    Slew s = slew; // before the origin: a slew is cleared before the origin changes
    if (s != null) {
      return s.nanoTimeWhen(targetNanos) - ticker.nanoTime();
    }
    return targetNanos - (ticker.nanoTime() - origin);
  }

  /** As {@link #awaitMillis(long)}: this source never reads below a reading it gave. */
  @Override
  public long awaitMillis(long target, long seenMillis) {
    return awaitMillis(target);
  }

  @Override
  public String toString() {
    return "monotonic";
  }
}
