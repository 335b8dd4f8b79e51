package io.snowid;

import io.snowid.NodeBinding.Binding;
import io.snowid.lease.LeaseLostException;
import io.snowid.lease.LeaseWindowExceededException;
import io.snowid.node.NodeStatus;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Cleaner;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.random.RandomGenerator;

/**
 * A Snowflake ID generator: every ID carries the time it was issued (at full load, up to 10 ms
 * earlier: see below), the node fields of this generator and a sequence within the time unit.
 *
 * <p>Guarantees, for one instance:
 *
 * <ul>
 *   <li>IDs are unique and strictly increasing across all threads (linearizable): an ID is greater
 *       than every ID returned before its call began. A batch is a contiguous run.
 *   <li>The time in an ID is never ahead of the {@link TimeSource} when the ID is returned, unless
 *       a {@linkplain SnowflakeBuilder#maxLead lead} was configured, and then by at most the lead.
 *       It is the time the source read, except at full load: a generator whose sequence was spent
 *       and that was then off the CPU across time units (a late wake-up, a GC pause) issues the
 *       units it missed late, lagging the source read by less than 10 ms, until it has caught up
 *       (also for calls in the 10 ms after a tick was spent, if they come slower). An ID reserved
 *       before its caller parked is returned when the caller runs again.
 *   <li>When the sequence of a time unit is spent, callers wait for the next unit by parking.
 *   <li>A time source reading behind the last issued time is handled by the {@link ClockPolicy}.
 *   <li>Past the layout's {@linkplain Layout#lastInstant() last instant} no ID is issued: {@link
 *       LayoutExpiredException}.
 * </ul>
 *
 * <p>Uniqueness across generators needs distinct node field values per live generator: the {@code
 * io.snowid.node} package hands them out safely.
 */
public final class Snowflake implements IdGenerator, AutoCloseable {
  /*
   * Design (docs/design.md, section 3, "The position"). This class and three package-private
   * parts, one job each: Position (a position's encoding, an ID composed from it), ClockStepGuard
   * (clock steps, the clock policy), NodeBinding (node values, the lease, fencing).
   *
   * The whole mutable state is one long, the position (clockback | tick | sequence), taken by CAS:
   * the next ID is position + 1 (a spent sequence carries into the tick), a tick behind the source
   * jumps to (now, firstSequence), a batch is position + n. IDs are ordered as positions, which
   * only grow: linearizable, no lock. A position ahead of the source is reserved and its caller
   * parks (never spins) until the source reaches it: the only wait a monotonic source causes.
   * Catch-up (fullLoadTick, Position.catchesUp): a generator at full load that was off the CPU
   * across ticks issues the ticks it missed, late, instead of losing them ("Catch-up"). Spread:
   * see firstSequence and passTick.
   */
  private static final VarHandle STATE;

  /** Gives up the node values of generators dropped without close() (NodeClaims). */
  private static final Cleaner CLAIMS = Cleaner.create();

  /** How often {@link #awaitReady} looks at a lease that is not held: renewals come by, too. */
  private static final long READY_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

  static {
    try {
      STATE = MethodHandles.lookup().findVarHandle(Snowflake.class, "state", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final Layout layout;
  private final TimeSource time;
  private final MonotonicTimeSource fine; // the default source, read in nanoseconds; else null
  private final ClockPolicy policy;
  private final Position position;
  private final ClockStepGuard clock;
  private final NodeBinding node;
  private final long lead;
  private final RandomGenerator random; // null: ThreadLocalRandom

  private volatile long state; // the position: (clockback | tick | sequence)

  // -1, or the latest tick entered by carry, its predecessor's sequence spent (off the fast path)
  private volatile long fullLoadTick = -1;

  /** Starts a generator: {@link SnowflakeBuilder#build()}, which checked the settings. */
  Snowflake(SnowflakeSettings settings, NodeSources.Resolved nodeSource) {
    this.layout = settings.layout();
    this.time = settings.time();
    this.fine = time instanceof MonotonicTimeSource m ? m : null;
    this.policy = settings.policy();
    this.lead = settings.leadTicks();
    this.random = settings.random();
    this.position = new Position(layout);
    this.clock = new ClockStepGuard(position, time, policy, lead, settings.maxWaitTicks());
    this.node =
        new NodeBinding(
            layout,
            position,
            time,
            nodeSource,
            settings.startAfterMillis(),
            this::passTick,
            this::lastReservedTick);
    this.state = 0; // (0, 0) is never issued
    CLAIMS.register(this, node.claim); // an unclosed generator's values are free once it is gone
    node.start();
    NodeValuesInUseException refused = node.refused();
    if (refused != null) {
      node.close();
      throw refused;
    }
  }

  /** A builder with the defaults: Twitter's layout, the monotonic time source, no lead. */
  public static SnowflakeBuilder builder() {
    return new SnowflakeBuilder();
  }

  /**
   * {@inheritDoc}
   *
   * <p>Parks while the sequence of the time unit is spent (or the next ID would be more than the
   * lead ahead of the time source), and while a step back of the source is waited out.
   *
   * @throws ClockMovedBackwardsException if the time source stepped back and the {@link
   *     ClockPolicy} does not absorb the step
   * @throws LayoutExpiredException past the layout's last instant
   * @throws LeaseLostException if the node lease is not valid (lost, not renewed in time,
   *     released); with a time source that may step back (the wall clock), also once the lease's
   *     deadline has passed in real time, whatever the clock reads
   */
  @Override
  public long nextId() {
    // The hot path, as Twitter's IdWorker.nextId: one clock read, one CAS, compose (tryNextId);
    // anything else (a position ahead of the source or past the lease's deadline): reserve().
    long id = tryNextId();
    return id != NO_ID ? id : reserve(1, null);
  }

  /**
   * What {@link #tryNextId()} returns when the next ID cannot be issued without waiting. No
   * generator ever issues 0: its position (time unit 0, sequence 0) is the start, never issued.
   */
  public static final long NO_ID = 0;

  /**
   * The next ID if it can be issued at once, with no wait of any kind; otherwise {@link #NO_ID},
   * and nothing was reserved. Then {@link #nextId()}, on a thread that may block, issues it (or
   * throws what stops it: a lost lease, a clock step the policy refuses, an expired layout).
   *
   * <p>For callers that must not block, such as a network server's I/O thread: the ID is issued
   * when the time unit's sequence has room, the time source has not stepped back, and the node
   * lease covers the current time unit, which is the common case; a spent sequence, a position
   * reserved ahead by a batch, a clock step, a high-water mark still in the future, a lease waiting
   * for renewal or fenced, and an expired layout all answer {@link #NO_ID}. The same guarantees
   * hold as for {@link #nextId()}: it is the same reservation, without its slow path.
   */
  public long tryNextId() {
    // The common case, the source within the tick of the next position, is checked on the reading
    // in nanoseconds: no division, whose latency would stand between the clock read and the CAS.
    // Anything else is decided in ticks, from the same reading.
    Binding b = node.current; // before the clock: a reading is never older than its binding
    long nanos = fine != null ? fine.unixNanos() : Position.nanosOf(time.millis());
    long s = state;
    long next = s + 1;
    long t = position.tick(next);
    if (position.inTick(nanos, t)
        && t <= b.limitTick
        && !node.pastRealDeadline(b)
        && STATE.compareAndSet(this, s, next)
        && node.current == b) {
      return position.compose(b.nodeBits, next);
    }
    return tryNextIdAt(ticksAt(nanos), b);
  }

  /** The tick of a reading in Unix nanoseconds; a saturated one is read again in milliseconds. */
  private long ticksAt(long unixNanos) {
    return unixNanos == Long.MAX_VALUE || unixNanos == Long.MIN_VALUE
        ? ticks()
        : position.tickAtNanos(unixNanos);
  }

  /**
   * {@link #tryNextId()} off its common case, with {@code now} a reading of the source in ticks.
   */
  private long tryNextIdAt(long now, Binding read) {
    for (; ; ) {
      Binding b = node.current;
      if (b != read) {
        return NO_ID; // bound after the reading: the slow path reads the source again
      }
      long s = state;
      long next = s + 1;
      long t = position.tick(next);
      boolean fresh = t < now && !position.catchesUp(s, t, now, fullLoadTick);
      if (fresh) {
        next = position.positionAt(position.clockbackPart(s), now, firstSequence(s));
        t = now;
      }
      // a catch-up position lies behind now: the lease's deadline and the layout's end are now's
      if (t > now + lead || Math.max(t, now) > b.limitTick || node.pastRealDeadline(b)) {
        return NO_ID; // (the last: a lease's deadline in real time, for a source that steps back)
      }
      if (STATE.compareAndSet(this, s, next)) {
        if (fresh) {
          clock.raiseHigh(next);
        } else if (t < now) { // caught up: the reading still counts for the clock-step guard
          clock.raiseHigh(position.positionAt(position.clockbackPart(next), now, 0));
        }
        if (!fresh && position.startsTick(next)) { // entered by carry: at full load
          fullLoadTick = t;
        }
        if (node.current == b) { // else new node values were bound meanwhile: skip the position
          return position.compose(b.nodeBits, next);
        }
      }
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>Parks as {@link #nextId()} does, until the time of the last ID has come. Under a node lease,
   * a batch waits for renewals while it reaches past the lease's deadline.
   *
   * @throws ClockMovedBackwardsException as {@link #nextId()}
   * @throws LayoutExpiredException if the batch would reach past the layout's last instant
   * @throws LeaseLostException as {@link #nextId()}
   * @throws LeaseWindowExceededException if the batch spans more time units than a renewal of the
   *     lease covers, so that it could never be issued
   */
  @Override
  public void nextIds(long[] into) {
    if (into.length > 0) {
      reserve(into.length, into);
    }
  }

  /**
   * The slow path: reserves n consecutive positions, handles clock steps, expiry and fencing, waits
   * until their time has come, and returns the first ID (writing all n into {@code into} when
   * given).
   */
  private long reserve(int n, long[] into) {
    Binding waitedOn = null;
    ClockStepGuard.Call call = clock.call(); // the clock steps this call met: maxWait is per call
    for (; ; ) {
      int rejoins = node.rejoins.get(); // then the binding, then the clock (NodeBinding.rejoins)
      Binding b = node.current;
      long now = ticks();
      if (b.fencedReason != null) { // closed, or a grant that does not fit: before any clock step
        throw node.fenced(b, now);
      }
      long s = state;
      long cbPart = position.clockbackPart(s);
      long first = s + 1;
      long t = position.tickAbove(cbPart, first);
      boolean fresh = t < now && !position.catchesUp(s, t, now, fullLoadTick);
      if (fresh) {
        first = position.positionAt(cbPart, now, firstSequence(s));
        t = now;
      }
      long last = first + n - 1;
      long lastTick = position.tickAbove(cbPart, last);
      if (t > now + lead) {
        // Ahead of the source: a spent sequence (wait), or the source stepped back (policy). Asked
        // before the lease, so that a step back is the policy's also at the lease's deadline.
        long decision = clock.onAhead(s, t, call, b.startAfterMillis);
        now = ClockStepGuard.latestTick(decision);
        if (ClockStepGuard.steppedBack(decision)) { // the run starts over at the earlier time
          cbPart = position.nextClockback(cbPart);
          first = position.positionAt(cbPart, now, firstSequence(s));
          last = first + n - 1;
          t = now;
          lastTick = position.tickAbove(cbPart, last);
          fresh = true;
        }
      }
      if (node.pastRealDeadline(b)) { // after the clock's waits: nothing waits from here to the CAS
        if (!node.awaitRenewal(b)) {
          throw node.fenceInRealTime(b, now);
        }
        continue; // a grant came
      }
      if (Math.max(lastTick, now) > b.limitTick) { // a catch-up run lies behind now
        if (Math.max(lastTick, now) > position.maxTick()) {
          throw expired(now);
        }
        if (now > b.limitTick) {
          if (!node.awaitRenewal(b)) {
            throw node.fenced(b, now);
          }
          continue; // a grant came
        }
        if (waitedOn != null && waitedOn != b && lastTick - t > b.limitTick - now) {
          // a renewal came and the run is longer than what it covers ahead: it never fits
          throw new LeaseWindowExceededException(
              b.grant.values(),
              n,
              (lastTick - t + 1) * position.unitMillis(),
              (b.limitTick - now + 1) * position.unitMillis());
        }
        // The lease is valid and the run reaches past its deadline (a burst, a batch, or a start
        // pushed past it by a high-water mark): wait for renewals, one unit at a time, for as
        // long as they come; the lease's deadline bounds the wait when they stop.
        waitedOn = b;
        time.awaitMillis(position.millisAt(now + 1), position.millisAt(now));
        continue;
      }
      if (!STATE.compareAndSet(this, s, last) || node.current != b) {
        continue;
      }
      if (fresh) {
        clock.raiseHigh(first);
      } else if (t < now) { // caught up: the reading still counts for the clock-step guard
        clock.raiseHigh(position.positionAt(cbPart, now, 0));
      }
      if (!fresh && position.startsTick(first)) { // entered by carry: at full load
        fullLoadTick = t;
      }
      if (lastTick > now + lead
          && (!clock.awaitRun(lastTick, now, call)
              || node.pastRealDeadline(b)
              || node.rejoins.get() != rejoins)) {
        continue; // clockback: the run is given up (the next round counts the step); or the lease
        // ran out in real time while the run waited for its time, or the source rejoined the wall
        // clock, so that the deadline it was checked against counted from before: the next round
        // fences
      }
      if (into != null) {
        for (int i = 0; i < n; i++) {
          into[i] = position.compose(b.nodeBits, first + i);
        }
      }
      return position.compose(b.nodeBits, first);
    }
  }

  /** One reading of the time source, in ticks. */
  private long ticks() {
    return position.tickAt(time.millis());
  }

  /**
   * The sequence of a tick entered because the clock moved on. After a busy tick (more than half
   * its sequence used) it is 0: a saturated generator that was off the CPU across a tick boundary,
   * for longer than a catch-up goes, keeps the whole new tick (a random start would lose up to half
   * of it). Otherwise a random value below half the range, so low-traffic IDs do not all end in 0
   * and id % n stays even (a deterministic carry-over fails that: with one ID per ms, id % 5 then
   * stays constant for 2048 IDs at a time).
   */
  private long firstSequence(long s) {
    return position.busy(s) ? 0 : position.spread(randomBits());
  }

  private long randomBits() {
    RandomGenerator r = random;
    return r == null ? ThreadLocalRandom.current().nextLong() : r.nextLong();
  }

  /**
   * For a new acquisition of node values: moves the position past every tick issued so far and past
   * {@code tick} (-1: none), so that IDs under the new values are greater than all before, and to a
   * reading of the time source at least, which seeds the clock-step guard: a later reading below it
   * is a step back, also before the first ID under these values. The position lands just inside the
   * next tick (or the tick read), at a random sequence below half the range: that tick counts as
   * quiet, so the first ID is spread like any after a quiet tick, whether it falls in that tick
   * (the next sequence) or a later one (a fresh draw). A fresh generator starts here. The tick
   * landed in counts as reserved: {@link #lastReservedTick} may be one unit past the last ID.
   */
  private void passTick(long tick) {
    long now = Math.min(ticks(), position.maxTick() + 1); // past the end: reserve throws
    for (; ; ) {
      long s = state;
      long cbPart = position.clockbackPart(s);
      long next = Math.max(Math.max(position.tick(s), tick) + 1, now);
      long moved = position.positionAt(cbPart, next, position.spread(randomBits()));
      if (STATE.compareAndSet(this, s, moved)) {
        if (now >= 0) { // else the source reads before the epoch: no tick to seed with
          clock.raiseHigh(position.positionAt(cbPart, now, 0));
        }
        return;
      }
    }
  }

  /** The latest tick issued or reserved, the peak before a clockback step included. */
  private long lastReservedTick() {
    long tick = position.tick(state); // read before steppedFromTick: see ClockStepGuard.onAhead
    return Math.max(tick, clock.steppedFromTick());
  }

  private LayoutExpiredException expired(long nowTicks) {
    return new LayoutExpiredException(
        layout.spec(), layout.lastInstant(), Instant.ofEpochMilli(position.millisAt(nowTicks)));
  }

  @Override
  public Layout layout() {
    return layout;
  }

  /** The node field values this generator stamps into its IDs now. */
  public Map<String, Long> node() {
    return node.values();
  }

  /** Whether this generator can issue now, with which node values, from which source. */
  public NodeStatus nodeStatus() {
    return node.status();
  }

  /**
   * Waits until this generator can issue without waiting for its node values: they are held and the
   * time source has passed the node's high-water mark ({@link #nodeStatus()} {@code held}). A new
   * lease may first have to wait out an earlier holder (docs/node-ids.md, "Why the first ID may
   * wait"); {@link #nextId()} waits the same by itself, so this only lets a service hold back
   * traffic, or a health check pass, until then. Returns at once when the generator is ready.
   *
   * @param timeout how long to wait, in real time; zero checks once
   * @return true once ready; false if the timeout passed first
   * @throws InvalidSettingException if the timeout is negative
   * @throws LeaseLostException if the generator was closed: it will never be ready
   * @throws InterruptedException if the thread is interrupted while waiting
   */
  public boolean awaitReady(Duration timeout) throws InterruptedException {
    if (timeout.isNegative()) {
      throw new InvalidSettingException("timeout", Durations.format(timeout), "zero or more");
    }
    long start = System.nanoTime();
    long limit = timeout.compareTo(Duration.ofDays(365)) > 0 ? Long.MAX_VALUE : timeout.toNanos();
    while (true) {
      LeaseLostException closed = node.closedBecause();
      if (closed != null) {
        throw closed;
      }
      NodeStatus s = node.status();
      if (s.held()) {
        return true;
      }
      long left = limit - (System.nanoTime() - start);
      if (left <= 0) {
        return false;
      }
      if (Thread.interrupted()) {
        throw new InterruptedException();
      }
      long untilStart =
          s.waitingUntil() == null
              ? Long.MAX_VALUE
              : TimeUnit.MILLISECONDS.toNanos(
                  Math.max(1, s.waitingUntil().toEpochMilli() + 1 - time.millis()));
      LockSupport.parkNanos(this, Math.min(left, Math.min(untilStart, READY_POLL_NANOS)));
    }
  }

  /**
   * Releases the node lease this generator opened itself ({@link SnowflakeBuilder#nodeSource});
   * later calls of {@link #nextId()}, and calls waiting meanwhile, throw {@link LeaseLostException}
   * saying that the generator was closed, since when. A lease passed to {@link
   * SnowflakeBuilder#lease} stays open: its owner closes it. Idempotent.
   */
  @Override
  public void close() {
    node.close();
  }

  public TimeSource timeSource() {
    return time;
  }

  public ClockPolicy clockPolicy() {
    return policy;
  }

  /** How many calls waited for their time unit (spent sequence or a clock step within bound). */
  public long waitCount() {
    return clock.waitCount();
  }

  /**
   * How many times the time source was seen stepping back below a reading already seen: each step
   * once, however many calls met it (under {@code fail}, every call fails until the source is
   * back).
   */
  public long clockStepCount() {
    return clock.stepCount();
  }

  /** Time left before the layout's last instant, by this generator's time source. */
  public Duration remainingLifetime() {
    return layout.remainingLifetime(Instant.ofEpochMilli(time.millis()));
  }

  @Override
  public String toString() {
    return "Snowflake[%s, node=%s, time=%s, %s]".formatted(layout.spec(), node(), time, policy);
  }
}
