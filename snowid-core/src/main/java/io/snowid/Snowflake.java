package io.snowid;

import io.snowid.lease.LeaseLostException;
import io.snowid.lease.LeaseWindowExceededException;
import io.snowid.node.GrantListener;
import io.snowid.node.NodeGrant;
import io.snowid.node.NodeIdChain;
import io.snowid.node.NodeLease;
import io.snowid.node.NodeStatus;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;
import java.util.random.RandomGenerator;

/**
 * A Snowflake ID generator: every ID carries the time it was issued, the node fields of this
 * generator and a sequence within the time unit.
 *
 * <p>Guarantees, for one instance:
 *
 * <ul>
 *   <li>IDs are unique and strictly increasing across all threads (linearizable): an ID is greater
 *       than every ID returned before its call began. A batch is a contiguous run.
 *   <li>The time in an ID is never ahead of the {@link TimeSource} when the ID is returned, unless
 *       a {@linkplain Builder#maxLead lead} was configured, and then by at most the lead.
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
   * Design.
   *
   * The whole mutable state is one long, a "position" (clockback | tick | sequence), advanced by
   * compare-and-set. Issuing the next ID is position + 1: a spent sequence carries into the tick
   * by plain addition, so the common path has no branch for it. A tick behind the time source
   * jumps the position to (now, spread). The ID is a pure function of the position, so IDs are
   * ordered exactly as positions are, and positions only grow: linearizable by construction, with
   * no lock. A batch is one CAS of position + n.
   *
   * A position whose tick is more than `lead` ahead of the source is reserved all the same and
   * the caller parks until the source reaches it: the position is taken, so no one can issue it
   * twice, and the ID is returned only once its time is not in the future. That wait is the
   * only waiting a monotonic source ever causes, and it parks rather than spins (the peers spin
   * a core at the cap; see BENCHMARKS.md).
   *
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
   * Under a lease nothing is issued past the grant's deadline. A run that reaches past a valid
   * deadline (a burst under a lead, a batch, a start pushed past it by a high-water mark) waits
   * for renewals one unit at a time. A deadline that passed while the lease may be healthy (the
   * clock stepped forward by more than the lease time left, a renewal ran late) makes the caller
   * ask the lease for a renewal at once and wait for it a bounded time, once per grant, rather
   * than fail until the next scheduled renewal.
   *
   * The tick inside the position has one spare bit above the largest tick, so a carry out of the
   * last tick shows as "tick > maxTick" instead of wrapping into the clockback bits.
   *
   * Spread: a tick entered because the clock moved on after a quiet tick starts its sequence at a
   * random value below half the range, so low-traffic IDs do not all end in 0 (sharding by id % n
   * stays even). A tick entered by carry, or after a busy tick, starts at 0, so the sustained
   * capacity per tick is the full sequence range (see firstSequence).
   */
  private static final VarHandle STATE;
  private static final VarHandle HIGH;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      STATE = lookup.findVarHandle(Snowflake.class, "state", long.class);
      HIGH = lookup.findVarHandle(Snowflake.class, "high", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final Layout layout;
  private final TimeSource time;
  private final ClockPolicy policy;
  private final NodeLease lease;
  private final boolean ownsLease;
  private final String nodeSource;
  private final long epochMillis;
  private final long unitMillis;
  private final long lead;
  private final long maxWaitTicks;
  private final long maxTick;
  private final int seqBits;
  private final long seqMask;
  private final int tickBits;
  private final long tickMask;
  private final int cbShift;
  private final long cbStateMask;
  private final long cbMax;
  private final int idTimeShift;
  private final int idSeqShift;
  private final int idCbShift;
  private final long spreadMask;
  private final Object slowPath = new Object();
  private final LongAdder waits = new LongAdder();
  private final LongAdder clockSteps = new LongAdder();
  private final long builderStartAfter;
  private final RandomGenerator random; // null: ThreadLocalRandom

  @SuppressWarnings("unused") // accessed through STATE
  private volatile long state;

  @SuppressWarnings("unused") // accessed through HIGH
  private volatile long high;

  /**
   * The highest tick a clockback step left behind (-1: none). A step moves the position's tick
   * back, so the position alone no longer tells the lease the latest time issued.
   */
  private volatile long steppedFromTick = -1;

  /** The node values in force and the last tick they may be used for; replaced, never mutated. */
  private volatile Binding bound;

  /** The last binding whose lease was asked for a renewal past its deadline and gave none. */
  private volatile Binding renewalMissed;

  private static final class Binding {
    final NodeGrant grant;
    final long nodeBits;
    final long limitTick; // IDs carry ticks <= limitTick: min(layout's last, lease deadline)
    final String fencedReason;

    Binding(NodeGrant grant, long nodeBits, long limitTick, String fencedReason) {
      this.grant = grant;
      this.nodeBits = nodeBits;
      this.limitTick = limitTick;
      this.fencedReason = fencedReason;
    }
  }

  private Snowflake(Builder b, long startAfterMillis) {
    this.layout = b.layout;
    this.time = b.time;
    this.policy = b.policy;
    this.lease = b.lease;
    this.ownsLease = b.ownsLease;
    this.nodeSource = b.nodeSource;
    this.epochMillis = layout.epochMillis();
    this.unitMillis = layout.unitMillis();
    this.lead = b.leadTicks;
    this.maxWaitTicks = b.maxWait.toMillis() / unitMillis;
    this.maxTick = layout.maxTime();
    Layout.Field seq = layout.sequenceField();
    this.seqBits = seq.bits();
    this.seqMask = seq.max();
    this.tickBits = 64 - Long.numberOfLeadingZeros(maxTick) + 1; // one spare bit for the carry
    this.tickMask = (1L << tickBits) - 1;
    this.cbShift = Math.min(63, seqBits + tickBits);
    this.cbMax = layout.clockbackField().map(Layout.Field::max).orElse(0L);
    this.cbStateMask = cbMax << cbShift;
    this.idTimeShift = layout.timeField().shift();
    this.idSeqShift = seq.shift();
    this.idCbShift = layout.clockbackField().map(Layout.Field::shift).orElse(0);
    this.spreadMask = seqMask >>> 1;
    this.state = 0; // (0, 0) is never issued
    this.high = -1; // no reading of the source seen yet
    this.builderStartAfter = startAfterMillis;
    this.random = b.random;
    if (lease == null) {
      bind(NodeGrant.permanent(b.node, nodeSource));
    } else {
      lease.attach(
          new GrantListener() {
            @Override
            public void onGrant(NodeGrant grant) {
              bind(grant);
            }

            @Override
            public long lastIssuedMillis() {
              return lastReservedMillis();
            }
          });
    }
  }

  /**
   * Takes a new grant. A renewal only moves the deadline. A new acquisition fences, moves the
   * position past every tick issued so far and past the grant's high-water mark, then binds: so IDs
   * under new node values are greater than all before and after the previous holder's.
   */
  private void bind(NodeGrant grant) {
    synchronized (slowPath) {
      long bits = 0;
      String problem = null;
      for (Layout.Field f : layout.nodeFields()) {
        Long v = grant.values().get(f.name());
        if (v == null || v < 0 || v > f.max()) {
          problem = "grant " + grant.values() + " does not fit node field " + f;
          break;
        }
        bits |= v << f.shift();
      }
      long deadline = grant.validUntilMillis();
      long limit; // the last tick wholly before the deadline; no overflow for extreme deadlines
      if (deadline == Long.MAX_VALUE) {
        limit = maxTick;
      } else if (deadline <= epochMillis) {
        limit = -1;
      } else {
        limit = Math.min(maxTick, Math.floorDiv(deadline - epochMillis - 1, unitMillis));
      }
      Binding current = bound;
      boolean renewal =
          current != null
              && current.grant.acquisition() == grant.acquisition()
              && current.grant.values().equals(grant.values());
      if (!renewal) {
        bound = new Binding(grant, bits, -1, "binding new node values " + grant.values());
        long startAfter = Math.max(grant.startAfterMillis(), builderStartAfter);
        long hwTick =
            startAfter == Long.MIN_VALUE ? -1 : Math.floorDiv(startAfter - epochMillis, unitMillis);
        for (; ; ) {
          long s = state;
          long target = Math.max((s >>> seqBits) & tickMask, hwTick);
          long moved = (s & cbStateMask) | (Math.max(target, 0) << seqBits) | seqMask;
          if (moved == s || STATE.compareAndSet(this, s, moved)) {
            break;
          }
        }
      }
      bound = new Binding(grant, bits, problem == null ? limit : -1, problem);
    }
  }

  private long lastReservedMillis() {
    long tick = (state >>> seqBits) & tickMask; // read before steppedFromTick: see onAhead
    return epochMillis + Math.max(tick, steppedFromTick) * unitMillis;
  }

  /** A builder with the defaults: Twitter's layout, the monotonic time source, no lead. */
  public static Builder builder() {
    return new Builder();
  }

  // Measured (BENCHMARKS.md, 2 cores): this path costs 35 ns/op uncapped against 27 ns for one
  // System.nanoTime(); at the cap it burns 0.040 CPU-s per million IDs where the spinning peers
  // burn 0.244, because a spent tick parks in reserve() instead of spinning.
  @Override
  public long nextId() {
    long now = ticks();
    for (; ; ) {
      Binding b = bound;
      long s = state;
      long next = s + 1;
      long t = (next >>> seqBits) & tickMask;
      boolean fresh = t < now;
      if (fresh) {
        next = (s & cbStateMask) | (now << seqBits) | firstSequence(s);
        t = now;
      }
      if (t > now + lead || t > b.limitTick) {
        return reserve(1, null);
      }
      if (STATE.compareAndSet(this, s, next)) {
        if (fresh) {
          raiseHigh(next);
        }
        if (bound == b) { // else new node values were bound meanwhile: skip the position
          return compose(b.nodeBits, next);
        }
      }
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>Under a node lease, a batch waits for renewals while it reaches past the lease's deadline.
   *
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
   * Reserves n consecutive positions, handles clock steps, expiry and fencing, waits until their
   * time has come, and returns the first ID (writing all n into {@code into} when given).
   */
  private long reserve(int n, long[] into) {
    Binding waitedOn = null;
    for (; ; ) {
      long now = ticks();
      Binding b = bound;
      long s = state;
      long cbPart = s & cbStateMask;
      long first = s + 1;
      long t = (first - cbPart) >>> seqBits;
      boolean fresh = t < now;
      if (fresh) {
        first = cbPart | (now << seqBits) | firstSequence(s);
        t = now;
      }
      long last = first + n - 1;
      long lastTick = (last - cbPart) >>> seqBits;
      if (t > now + lead) {
        // Ahead of the source: a spent sequence (wait), or the source stepped back (policy). Asked
        // before the lease, so that a step back is the policy's also at the lease's deadline.
        long decision = onAhead(s, t);
        now = decision >> 1; // the latest reading this call has seen
        if ((decision & 1) != 0) { // clockback: the run starts over at the earlier time
          cbPart += 1L << cbShift;
          first = cbPart | (now << seqBits) | firstSequence(s);
          last = first + n - 1;
          t = now;
          lastTick = (last - cbPart) >>> seqBits;
          fresh = true;
        }
      }
      if (lastTick > b.limitTick) {
        if (lastTick > maxTick) {
          throw expired(now);
        }
        if (now > b.limitTick) {
          if (!awaitRenewal(b)) {
            throw fenced(b, now);
          }
          continue; // a grant came
        }
        if (waitedOn != null && waitedOn != b && lastTick - t > b.limitTick - now) {
          // a renewal came and the run is longer than what it covers ahead: it never fits
          throw new LeaseWindowExceededException(
              b.grant.values(),
              n,
              (lastTick - t + 1) * unitMillis,
              (b.limitTick - now + 1) * unitMillis);
        }
        // The lease is valid and the run reaches past its deadline (a burst, a batch, or a start
        // pushed past it by a high-water mark): wait for renewals, one unit at a time, for as
        // long as they come; the lease's deadline bounds the wait when they stop.
        waitedOn = b;
        time.awaitMillis(epochMillis + (now + 1) * unitMillis, epochMillis + now * unitMillis);
        continue;
      }
      if (!STATE.compareAndSet(this, s, last) || bound != b) {
        continue;
      }
      if (fresh) {
        raiseHigh(first);
      }
      if (lastTick > now + lead) {
        waits.increment();
        if (!awaitTick(lastTick - lead, now)) {
          continue; // clockback: the run is given up; the next round counts the step
        }
      }
      if (into != null) {
        for (int i = 0; i < n; i++) {
          into[i] = compose(b.nodeBits, first + i);
        }
      }
      return compose(b.nodeBits, first);
    }
  }

  /**
   * Parks until the source reaches the tick and returns true. A reading below {@code seenTick} (the
   * latest this call read) is a step back, before or while waiting, and goes to the policy again
   * instead of parking for the step: {@code wait} waits on within its bound, {@code fail} throws,
   * {@code clockback} returns false: the caller gives up the positions it reserved and starts over,
   * where the step is counted (or found counted by another thread) as any other.
   */
  private boolean awaitTick(long tick, long seenTick) {
    long target = epochMillis + tick * unitMillis;
    long seen = epochMillis + seenTick * unitMillis;
    for (long reached; (reached = time.awaitMillis(target, seen)) < target; seen = reached) {
      if (policy == ClockPolicy.CLOCKBACK) {
        return false;
      }
      clockSteps.increment();
      if (policy == ClockPolicy.FAIL || target - reached > maxWaitTicks * unitMillis) {
        throw new ClockMovedBackwardsException(
            target,
            reached,
            "the time source stepped back while this call waited; policy " + policy);
      }
    }
    return true;
  }

  /**
   * The deadline of {@code b} passed while its lease may be healthy (the clock stepped forward, a
   * renewal ran late): asks the lease for a renewal at once and waits, as long as the lease says,
   * for a new grant. Returns whether one was bound. Once per binding: later calls under a binding
   * whose renewal did not come fail at once, and the lease's own renewals take over.
   */
  private boolean awaitRenewal(Binding b) {
    if (lease == null || b.fencedReason != null || renewalMissed == b) {
      return false;
    }
    lease.requestRenewal();
    if (bound != b) {
      return true;
    }
    renewalMissed = b;
    return false;
  }

  private LeaseLostException fenced(Binding b, long nowTicks) {
    long deadline = b.grant.validUntilMillis();
    Instant since =
        deadline == Long.MAX_VALUE
            ? Instant.ofEpochMilli(epochMillis + nowTicks * unitMillis)
            : Instant.ofEpochMilli(deadline);
    String reason =
        b.fencedReason != null
            ? b.fencedReason
            : b.grant.startAfterMillis() >= deadline
                ? "waiting for this clock to pass the node's high-water mark "
                    + Instant.ofEpochMilli(b.grant.startAfterMillis())
                : "the lease from " + b.grant.source() + " was not renewed in time";
    return new LeaseLostException(b.grant.values(), since, reason);
  }

  /**
   * Decides what to do when the next tick {@code t} after position {@code s} is ahead of the source
   * by more than the lead, from a reading of the source taken after {@code high}: a spent sequence
   * (reserve, then wait), a step back the policy waits out (wait here, then reserve), a step back
   * the policy counts (a clockback step to that reading), or throws. Returns the latest reading
   * seen times two, plus one for a clockback step; the clockback value is then one more than in
   * {@code s}.
   */
  private long onAhead(long s, long t) {
    long reread;
    synchronized (slowPath) {
      long h = high;
      long cb = (s >>> cbShift) & cbMax;
      reread = ticks(); // after reading `high`: a slow thread is not a clock step
      if (h < 0 || (h >>> tickBits) != cb || reread >= (h & tickMask)) {
        return reread << 1; // the source did not go back: the sequence is spent, wait for it
      }
      clockSteps.increment();
      long lastMillis = epochMillis + ((s >>> seqBits) & tickMask) * unitMillis;
      long nowMillis = epochMillis + reread * unitMillis;
      if (policy == ClockPolicy.FAIL) {
        throw new ClockMovedBackwardsException(lastMillis, nowMillis, "clock policy is fail");
      }
      if (policy == ClockPolicy.CLOCKBACK) {
        if (cb >= cbMax || reread < 0) {
          throw new ClockMovedBackwardsException(
              lastMillis,
              nowMillis,
              "the clockback field counted its maximum of " + cbMax + " steps");
        }
        // recorded before the step can be taken, so lastReservedMillis never misses the peak
        steppedFromTick = Math.max(steppedFromTick, (s >>> seqBits) & tickMask);
        return (reread << 1) | 1;
      }
      if (t - lead - reread > maxWaitTicks) {
        throw new ClockMovedBackwardsException(
            lastMillis,
            nowMillis,
            "more than the wait policy's bound of " + maxWaitTicks * unitMillis + " ms");
      }
    }
    // wait, within its bound: waited out here, before reserving, so that a run held up by the
    // lease meanwhile does not meet (and count) this step again
    waits.increment();
    awaitTick(t - lead, reread);
    return (t - lead) << 1;
  }

  private void raiseHigh(long position) {
    long h = position >>> seqBits; // (clockback, tick): monotonic with the source's readings
    long current;
    while (h > (current = high) && !HIGH.compareAndSet(this, current, h)) {
      Thread.onSpinWait();
    }
  }

  private long ticks() {
    long millis = time.millis() - epochMillis;
    return unitMillis == 1 ? millis : Math.floorDiv(millis, unitMillis);
  }

  /**
   * The sequence of a tick entered because the clock moved on. After a busy tick (more than half
   * its sequence used) it is 0: a saturated generator that was off the CPU across a tick boundary
   * keeps the whole new tick (1 thread at the cap: 0.9956 of the cap with a random start, 0.9978
   * without, BENCHMARKS.md "Proposed core changes"). Otherwise a random value below half the range,
   * so low-traffic IDs do not all end in 0 and id % n stays even (a deterministic carry-over fails
   * that: with one ID per ms, id % 5 then stays constant for 2048 IDs at a time).
   */
  private long firstSequence(long s) {
    return (s & seqMask) > spreadMask ? 0 : randomBits() & spreadMask;
  }

  private long randomBits() {
    RandomGenerator r = random;
    return r == null ? ThreadLocalRandom.current().nextLong() : r.nextLong();
  }

  private long compose(long nodeBits, long position) {
    return nodeBits
        | ((position >>> seqBits) & tickMask) << idTimeShift
        | ((position >>> cbShift) & cbMax) << idCbShift
        | (position & seqMask) << idSeqShift;
  }

  private LayoutExpiredException expired(long nowTicks) {
    return new LayoutExpiredException(
        layout.spec(),
        layout.lastInstant(),
        Instant.ofEpochMilli(epochMillis + nowTicks * unitMillis));
  }

  @Override
  public Layout layout() {
    return layout;
  }

  /** The node field values this generator stamps into its IDs now. */
  public Map<String, Long> node() {
    return bound.grant.values();
  }

  /** Whether this generator can issue now, with which node values, from which source. */
  public NodeStatus nodeStatus() {
    if (lease != null) {
      return lease.status();
    }
    return new NodeStatus(true, nodeSource, node(), null, "static node values", 0, 0);
  }

  /**
   * Releases the node lease this generator opened itself ({@link Builder#nodeSource}); later calls
   * of {@link #nextId()} throw {@link LeaseLostException}. A lease passed to {@link Builder#lease}
   * stays open: its owner closes it. Idempotent.
   */
  @Override
  public void close() {
    if (lease != null && ownsLease) {
      lease.close();
    }
  }

  public TimeSource timeSource() {
    return time;
  }

  public ClockPolicy clockPolicy() {
    return policy;
  }

  /** How many calls waited for their time unit (spent sequence or a clock step within bound). */
  public long waitCount() {
    return waits.sum();
  }

  /** How many times the time source was seen stepping back behind an issued timestamp. */
  public long clockStepCount() {
    return clockSteps.sum();
  }

  /** Time left before the layout's last instant, by this generator's time source. */
  public Duration remainingLifetime() {
    return layout.remainingLifetime(Instant.ofEpochMilli(time.millis()));
  }

  @Override
  public String toString() {
    return "Snowflake["
        + layout.spec()
        + ", node="
        + node()
        + ", time="
        + time
        + ", "
        + policy
        + "]";
  }

  /**
   * Configures a {@link Snowflake}. Every setter validates at once and {@link #build()} checks the
   * combination, naming the setting, the value and the allowed range.
   */
  public static final class Builder {
    private static final Duration MAX_LEAD = Duration.ofMinutes(1);
    private static final Duration MAX_WAIT = Duration.ofMinutes(1);

    private Layout layout = Layout.twitter();
    private TimeSource time;
    private ClockPolicy policy = ClockPolicy.WAIT;
    private Duration maxWait = Duration.ofSeconds(1);
    private Duration maxLead = Duration.ZERO;
    private long leadTicks;
    private long startAfterMillis = Long.MIN_VALUE;
    private final Map<String, Long> node = new LinkedHashMap<>();
    private String nodeSource = "explicit";
    private String nodeSpec;
    private NodeLease lease;
    private boolean ownsLease;
    private RandomGenerator random;

    private Builder() {}

    /** The ID layout; default {@link Layout#twitter()}. Clears node values set before. */
    public Builder layout(Layout layout) {
      if (layout == null) {
        throw new InvalidSettingException("layout", null, "a layout");
      }
      this.layout = layout;
      node.clear();
      return this;
    }

    /** The ID layout by preset name or spec string. */
    public Builder layout(String presetOrSpec) {
      return layout(Layout.preset(presetOrSpec));
    }

    /**
     * The value of one node field of the layout, e.g. {@code node("worker", 7)}.
     *
     * @throws InvalidSettingException if the layout has no such node field or the value does not
     *     fit it
     */
    public Builder node(String field, long value) {
      Layout.Field f = layout.field(field).filter(Layout.Field::isNode).orElse(null);
      if (f == null) {
        throw new InvalidSettingException(field, value, "a node field of " + nodeFieldNames());
      }
      if (value < 0 || value > f.max()) {
        throw new InvalidSettingException(field, value, "0.." + f.max());
      }
      node.put(field, value);
      return this;
    }

    /** Several node field values at once; see {@link #node(String, long)}. */
    public Builder node(Map<String, Long> values) {
      values.forEach(this::node);
      return this;
    }

    /**
     * Where the node field values come from, resolved at {@link #build()}:
     *
     * <ul>
     *   <li>{@code auto}: explicit {@link #node} values, then {@link NodeIdChain#standard()};
     *   <li>{@code static:worker=3,datacenter=1}: exactly these values;
     *   <li>a lease coordinator URI ({@code file:DIR}, {@code redis://…}, {@code jdbc:…}): a lease
     *       that the generator renews and releases on {@link Snowflake#close()}.
     * </ul>
     */
    public Builder nodeSource(String spec) {
      if (spec == null || spec.isBlank()) {
        throw new InvalidSettingException("node", spec, NodeSources.FORMS);
      }
      this.nodeSpec = spec.trim();
      return this;
    }

    /**
     * Node values from a lease that the caller opened and will close; the generator issues only
     * while the lease's current grant is valid.
     */
    public Builder lease(NodeLease lease) {
      if (lease == null) {
        throw new InvalidSettingException("lease", null, "a NodeLease");
      }
      this.lease = lease;
      this.ownsLease = false;
      return this;
    }

    /** The time source; default {@link TimeSource#monotonic()}. */
    public Builder timeSource(TimeSource source) {
      if (source == null) {
        throw new InvalidSettingException("timeSource", null, "a TimeSource");
      }
      this.time = source;
      return this;
    }

    /** What to do when the time source steps back; default {@link ClockPolicy#WAIT}. */
    public Builder clockPolicy(ClockPolicy policy) {
      if (policy == null) {
        throw new InvalidSettingException("clockPolicy", null, "wait, fail or clockback");
      }
      this.policy = policy;
      return this;
    }

    /** The clock policy by name: {@code wait}, {@code fail} or {@code clockback}. */
    public Builder clockPolicy(String name) {
      return clockPolicy(ClockPolicy.named(name));
    }

    /**
     * The longest clock step back the {@code wait} policy waits out; default 1 s, at most 1 min.
     */
    public Builder maxWait(Duration wait) {
      if (wait == null || wait.isNegative() || wait.compareTo(MAX_WAIT) > 0) {
        throw new InvalidSettingException("maxWait", wait, "PT0S..PT1M");
      }
      this.maxWait = wait;
      return this;
    }

    /**
     * How far ahead of the time source a burst may run before callers wait: IDs may carry a time up
     * to this much in the future. Default zero; at most one minute.
     */
    public Builder maxLead(Duration lead) {
      if (lead == null || lead.isNegative() || lead.compareTo(MAX_LEAD) > 0) {
        throw new InvalidSettingException("maxLead", lead, "PT0S..PT1M");
      }
      this.maxLead = lead;
      return this;
    }

    /**
     * A high-water mark: every ID will carry a time strictly after this Unix millisecond (the last
     * time a previous holder of the same node values may have issued). If the time source is behind
     * it by no more than {@link #maxWait}, the first call waits; by more, {@link #build()} fails.
     */
    public Builder startAfter(long unixMillis) {
      this.startAfterMillis = unixMillis;
      return this;
    }

    /**
     * For tests: the random source of a quiet tick's first sequence, so that statistical tests are
     * seeded and cannot fail by chance. Default (or {@code null}): {@link ThreadLocalRandom}. The
     * generator calls it from every issuing thread: a shared source must be thread-safe.
     */
    Builder random(RandomGenerator random) {
      this.random = random;
      return this;
    }

    /**
     * Builds the generator.
     *
     * @throws InvalidSettingException if a node field has no value or the policy needs a field the
     *     layout lacks
     * @throws LayoutExpiredException if the time source is past the layout's last instant
     * @throws ClockMovedBackwardsException if the time source is behind the high-water mark by more
     *     than the wait bound
     * @throws io.snowid.node.NodeIdUnavailableException if the node source cannot give values
     */
    public Snowflake build() {
      if (layout.wraps()) {
        throw new InvalidSettingException(
            "layout", layout.spec(), "a layout without wrap=true (for int32 use Int32Generator)");
      }
      if (policy == ClockPolicy.CLOCKBACK && layout.clockbackField().isEmpty()) {
        throw new InvalidSettingException(
            "clockPolicy",
            "clockback",
            "wait or fail: layout " + layout + " has no clockback field");
      }
      if (time == null) {
        time = TimeSource.monotonic();
      }
      long unit = layout.unitMillis();
      leadTicks = maxLead.toMillis() / unit;
      long nowMillis = time.millis();
      long nowTicks = Math.floorDiv(nowMillis - layout.epochMillis(), unit);
      if (nowTicks > layout.maxTime()) {
        throw new LayoutExpiredException(
            layout.spec(), layout.lastInstant(), Instant.ofEpochMilli(nowMillis));
      }
      if (nowTicks < 0) {
        throw new InvalidSettingException(
            "layout.epoch", layout.epoch(), "not after the time source's now " + nowMillis);
      }
      if (startAfterMillis != Long.MIN_VALUE) {
        if (Math.floorDiv(startAfterMillis - layout.epochMillis(), unit) >= layout.maxTime()) {
          throw new LayoutExpiredException(
              layout.spec(), layout.lastInstant(), Instant.ofEpochMilli(startAfterMillis));
        }
        if (startAfterMillis - nowMillis > maxWait.toMillis()) {
          throw new ClockMovedBackwardsException(
              startAfterMillis,
              nowMillis,
              "the node's high-water mark is ahead of the time source by more than maxWait "
                  + maxWait);
        }
      }
      // A lease resolved from nodeSource belongs to this build only: the builder is restored after
      // it, so that building again leases new node values instead of sharing these.
      boolean resolvedHere = nodeSpec != null && lease == null;
      Map<String, Long> explicitNode = new LinkedHashMap<>(node);
      String explicitSource = nodeSource;
      if (resolvedHere) {
        NodeSources.Resolved r = NodeSources.resolve(nodeSpec, layout, node, time);
        node.clear();
        node.putAll(r.values());
        nodeSource = r.source();
        lease = r.lease();
        ownsLease = lease != null;
      }
      if (lease == null) {
        for (Layout.Field f : layout.nodeFields()) {
          if (!node.containsKey(f.name())) {
            throw new InvalidSettingException(
                f.name(), "unset", "0.." + f.max() + " (every node field of the layout needs one)");
          }
        }
      }
      try {
        return new Snowflake(this, startAfterMillis);
      } catch (RuntimeException e) {
        if (ownsLease) {
          lease.close();
        }
        throw e;
      } finally {
        if (resolvedHere) {
          lease = null;
          ownsLease = false;
          node.clear();
          node.putAll(explicitNode);
          nodeSource = explicitSource;
        }
      }
    }

    private String nodeFieldNames() {
      StringBuilder sb = new StringBuilder();
      for (Layout.Field f : layout.nodeFields()) {
        sb.append(sb.length() == 0 ? "" : ", ").append(f.name());
      }
      return sb.length() == 0 ? layout + " (none)" : sb.toString();
    }
  }
}
