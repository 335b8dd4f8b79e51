package io.snowid;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.LongAdder;

/**
 * A generator's view of its time source: reads it in ticks, tells a step back of the source from a
 * spent sequence, and applies the {@link ClockPolicy} (and its {@code maxWait} bound) to a step,
 * both when a caller finds the next tick ahead of the source and while a caller waits for a tick.
 * Counts the waits and the steps.
 */
final class ClockStepGuard {
  /*
   * A source that steps back is told apart from a spent sequence by `high`: the highest
   * (clockback, tick) the source has been seen at. It is raised only by reads of the source,
   * never by reservations, so "the source now reads below `high`" means exactly that the source
   * went back. That test runs on the slow path only, under a lock, with the source read after
   * `high`, so a thread that was merely slow cannot be taken for a clock step. It compares with
   * `high` only, never with the caller's own earlier read: that read may already be after the
   * step, and a millisecond ticking between it and the check would make the step look like a
   * spent sequence, parking the caller for the whole step whatever the policy.
   *
   * A wait for a tick is a wait on the source, which may step back while (or just before) the
   * caller waits: the wait ends at the first reading below one already seen and goes back to the
   * policy, so no caller parks for the length of a step. The policy is asked before the lease's
   * deadline is: a step back is the policy's even when the next run is held up by the lease. So
   * the wait policy waits a step out before reserving (else each round of waiting for a renewal
   * would meet the step again), and a clockback caller that saw a step while waiting gives up
   * its positions and starts over, where the step is counted.
   *
   * `high` is seeded with a reading of the source whenever the position is moved for new node
   * values (the generator's start included, see Snowflake.passTick), and raised by every reading
   * the slow path takes. Before the first ID the position may be far ahead of the source (a
   * high-water mark of the lease): without a reading to compare with, a step back then looked like
   * a spent sequence and parked the first call for the whole step, whatever the policy. The wait
   * policy waits out the step (back to `high`), no more: a position further ahead is waited for as
   * any, after reserving, where the lease's deadline is minded. A clockback step never goes back to
   * the node's high-water mark: the previous holder of the node values may have issued there under
   * any clockback count.
   *
   * The default source (MonotonicTimeSource) steps back only when its generator, fenced by its
   * lease, rejoins the wall clock; its readings may then lie below `high` for a while (a reading
   * from before the rejoin may even raise it), so for it a reading below `high` is never a step:
   * the generator waits for its position, which the fence kept within the lease's deadline.
   *
   * The wait policy's bound is per call: the steps one call meets, one after the other, add up, and
   * once they exceed maxWait the call throws. A step met while waiting is measured from where the
   * source should read (the last reading plus the time waited since, by the ticker) to where it
   * reads: a step while the caller is parked counts in full, even when the source comes back above
   * the reading the caller had (the time source returns early then too).
   *
   * A step is counted once however many calls meet it: the last step counted is kept as the `high`
   * it went below and the latest reading seen below it since, with the time of that reading. A
   * reading below `high` is a new step only if `high` changed or the source went back below that
   * reading plus the time passed since (less a slack for the clock's granularity).
   */
  private static final VarHandle HIGH;

  static {
    try {
      HIGH = MethodHandles.lookup().findVarHandle(ClockStepGuard.class, "high", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** How far the source may lag the time passed, by the ticker, before it is a new step. */
  private static final long STEP_SLACK_MILLIS = 20;

  private final Position position;
  private final TimeSource time;
  private final ClockPolicy policy;
  private final long lead;
  private final long maxWaitTicks;
  private final Ticker ticker; // measures waits: how far the source should have moved meanwhile
  private final boolean stepsBack; // the default source goes back only when its generator rejoins
  private final Object lock = new Object();
  private final LongAdder waits = new LongAdder();
  private final LongAdder steps = new LongAdder();

  private volatile long high = -1; // no reading of the source seen yet

  /**
   * The highest tick a clockback step left behind (-1: none). A step moves the position's tick
   * back, so the position alone no longer tells the lease the latest time issued.
   */
  private volatile long steppedFromTick = -1;

  /** The `high` the last step counted went below (-1: none since the source passed it). */
  private long countedHigh = -1; // guarded by lock

  /** The latest reading (tick) seen below {@link #countedHigh}. */
  private long countedLow; // guarded by lock

  /** When {@link #countedLow} was read, by {@link #ticker}. */
  private long countedAt; // guarded by lock

  /**
   * One call's clock steps: how far the source went back, in total, while the call waited for it.
   * The {@code wait} policy waits out at most {@code maxWait} of steps per call.
   */
  static final class Call {
    private long steppedMillis;
  }

  /**
   * @param leadTicks how far ahead of the source a position may be issued ({@code maxLead})
   * @param maxWaitTicks the longest step back the {@code wait} policy waits out ({@code maxWait})
   */
  ClockStepGuard(
      Position position, TimeSource time, ClockPolicy policy, long leadTicks, long maxWaitTicks) {
    this.position = position;
    this.time = time;
    this.policy = policy;
    this.lead = leadTicks;
    this.maxWaitTicks = maxWaitTicks;
    this.ticker = time instanceof WallTimeSource wall ? wall.ticker() : Ticker.system();
    this.stepsBack = !(time instanceof MonotonicTimeSource);
  }

  /** A call of the slow path that met no step yet. */
  Call call() {
    return new Call();
  }

  private long ticks() {
    return position.tickAt(time.millis());
  }

  /**
   * Records that the source was read at the (clockback, tick) of {@code entered}: a position
   * entered at a reading, or any position whose tick is a reading.
   */
  void raiseHigh(long entered) {
    long h = position.reading(entered);
    long current;
    while (h > (current = high) && !HIGH.compareAndSet(this, current, h)) {
      Thread.onSpinWait();
    }
  }

  /**
   * Decides what to do when the next tick {@code t} after position {@code s} is ahead of the source
   * by more than the lead, from a reading of the source taken after {@code high}: a spent sequence
   * (reserve, then wait), a step back the policy waits out (wait here, then reserve), a step back
   * the policy counts (a clockback step to that reading), or throws. Returns a decision: {@link
   * #latestTick} and {@link #steppedBack}; after a step back the run's clockback count is one more
   * than in {@code s}.
   *
   * @param call the steps the calling call met so far: a step waited out here is added
   * @param startAfterMillis the node's high-water mark ({@link Long#MIN_VALUE}: none)
   * @throws ClockMovedBackwardsException if the policy is {@code fail}, the {@code wait} policy's
   *     bound is exceeded, the clockback field is full or a clockback step would go back to the
   *     high-water mark
   */
  long onAhead(long s, long t, Call call, long startAfterMillis) {
    long reread;
    long target;
    synchronized (lock) {
      long h = high;
      long cb = position.clockback(s);
      reread = ticks(); // after reading `high`: a slow thread is not a clock step
      if (!stepsBack
          || h < 0
          || position.readingClockback(h) != cb
          || reread >= position.readingTick(h)) {
        if (h >= 0 && position.readingClockback(h) == cb) {
          countedHigh = -1; // the source is back at `high`: a reading below it is a new step
        }
        if (reread >= 0 && reread <= position.maxTick()) { // a tick a position can hold
          raiseHigh(position.positionAt(position.clockbackPart(s), reread, 0));
        }
        return reread << 1; // the source did not go back: the sequence is spent, wait for it
      }
      long highTick = position.readingTick(h);
      countStep(h, reread);
      long lastMillis = position.millisAt(Math.min(position.tick(s), highTick));
      long nowMillis = position.millisAt(reread);
      if (policy == ClockPolicy.FAIL) {
        throw new ClockMovedBackwardsException(lastMillis, nowMillis, "clock policy is fail");
      }
      if (policy == ClockPolicy.CLOCKBACK) {
        if (cb >= position.maxClockback() || reread < 0) {
          throw new ClockMovedBackwardsException(
              lastMillis,
              nowMillis,
              "the clockback field counted its maximum of " + position.maxClockback() + " steps");
        }
        if (startAfterMillis != Long.MIN_VALUE && reread <= position.tickAt(startAfterMillis)) {
          throw new ClockMovedBackwardsException(
              lastMillis,
              nowMillis,
              "a clockback step cannot go back to the node's high-water mark "
                  + Instant.ofEpochMilli(startAfterMillis)
                  + ": the previous holder of these node values may have issued there");
        }
        // recorded before the step can be taken, so lastReservedTick never misses the peak
        steppedFromTick = Math.max(steppedFromTick, position.tick(s));
        return (reread << 1) | 1;
      }
      call.steppedMillis += (highTick - reread) * position.unitMillis();
      if (call.steppedMillis > maxWaitTicks * position.unitMillis()) {
        throw new ClockMovedBackwardsException(
            lastMillis,
            nowMillis,
            "more than the wait policy's bound of "
                + Durations.format(Duration.ofMillis(maxWaitTicks * position.unitMillis()))
                + (call.steppedMillis > (highTick - reread) * position.unitMillis()
                    ? " with the steps this call met before"
                    : ""));
      }
      target = Math.min(t - lead, highTick + 1); // the step, not a high-water mark beyond it
    }
    // wait, within its bound: waited out here, before reserving, so that a run held up by the
    // lease meanwhile does not meet (and count) this step again
    waits.increment();
    awaitTick(target, reread, call);
    return target << 1;
  }

  /**
   * Counts a reading below {@code h} (a value of {@code high}) as a step, unless it continues the
   * step counted last. Under the lock.
   */
  private void countStep(long h, long readingTick) {
    long at = ticker.nanoTime();
    long since = Math.max(0, (at - countedAt) / 1_000_000L - STEP_SLACK_MILLIS);
    if (h != countedHigh || readingTick < countedLow + since / position.unitMillis()) {
      steps.increment();
    }
    countedHigh = h;
    countedLow = readingTick;
    countedAt = at;
  }

  /** The latest reading of the source (in ticks) that {@link #onAhead} saw or waited for. */
  static long latestTick(long decision) {
    return decision >> 1;
  }

  /** Whether {@link #onAhead} decided on a clockback step: the run starts over at latestTick. */
  static boolean steppedBack(long decision) {
    return (decision & 1) != 0;
  }

  /**
   * Waits until the source reaches {@code lastTick} less the lead, for a run reserved ahead of it:
   * counted as a wait. Returns false if the run is given up (see {@link #awaitTick}).
   */
  boolean awaitRun(long lastTick, long seenTick, Call call) {
    waits.increment();
    return awaitTick(lastTick - lead, seenTick, call);
  }

  /**
   * Parks until the source reaches the tick and returns true. A reading below {@code seenTick} (the
   * latest this call read), or below it plus the time waited since, is a step back, before or while
   * waiting, and goes to the policy again instead of parking for the step: {@code wait} waits on
   * while the steps of the call add up to no more than its bound, {@code fail} throws, {@code
   * clockback} returns false: the caller gives up the positions it reserved and starts over, where
   * the step is counted (or found counted by another thread) as any other.
   */
  private boolean awaitTick(long tick, long seenTick, Call call) {
    long target = position.millisAt(tick);
    long seen = position.millisAt(seenTick);
    long seenAt = ticker.nanoTime();
    for (long reached; (reached = time.awaitMillis(target, seen)) < target; ) {
      if (policy == ClockPolicy.CLOCKBACK) {
        return false;
      }
      long waited = Math.max(0, (ticker.nanoTime() - seenAt) / 1_000_000L);
      synchronized (lock) {
        countStep(high, position.tickAt(reached));
      }
      call.steppedMillis += Math.max(0, seen + waited - reached); // how far it went back
      long bound = maxWaitTicks * position.unitMillis();
      if (policy == ClockPolicy.FAIL || call.steppedMillis > bound) {
        throw new ClockMovedBackwardsException(
            target,
            reached,
            "the time source stepped back while this call waited; policy "
                + policy
                + (policy == ClockPolicy.WAIT
                    ? ", and the steps of this call add up to more than its bound of "
                        + Durations.format(Duration.ofMillis(bound))
                    : ""));
      }
      seen = reached;
      seenAt = ticker.nanoTime();
    }
    return true;
  }

  /** The highest tick a clockback step left behind, or -1. */
  long steppedFromTick() {
    return steppedFromTick;
  }

  /** How many calls waited for their time unit (spent sequence or a clock step within bound). */
  long waitCount() {
    return waits.sum();
  }

  /**
   * How many times the time source was seen stepping back below a reading already seen: each step
   * once, however many calls met it.
   */
  long stepCount() {
    return steps.sum();
  }
}
