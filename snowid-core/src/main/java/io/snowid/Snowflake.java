package io.snowid;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

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
public final class Snowflake implements IdGenerator {
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
   * `high`, so a thread that was merely slow cannot be taken for a clock step.
   *
   * The tick inside the position has one spare bit above the largest tick, so a carry out of the
   * last tick shows as "tick > maxTick" instead of wrapping into the clockback bits.
   *
   * Spread: a tick entered because the clock moved on starts its sequence at a random value
   * below half the sequence range, so low-traffic IDs do not all end in 0 (sharding by id % n
   * stays even). A tick entered by carry, which is what happens at full load, starts at 0, so the
   * sustained capacity per tick is the full sequence range.
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
  private final Map<String, Long> node;
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
  private final long nodeBits;
  private final int idTimeShift;
  private final int idSeqShift;
  private final int idCbShift;
  private final long spreadMask;
  private final Object slowPath = new Object();
  private final LongAdder waits = new LongAdder();
  private final LongAdder clockSteps = new LongAdder();

  @SuppressWarnings("unused") // accessed through STATE
  private volatile long state;

  @SuppressWarnings("unused") // accessed through HIGH
  private volatile long high;

  private Snowflake(Builder b, long startTick) {
    this.layout = b.layout;
    this.time = b.time;
    this.policy = b.policy;
    this.node = Map.copyOf(b.node);
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
    long bits = 0;
    for (Layout.Field f : layout.nodeFields()) {
      bits |= node.get(f.name()) << f.shift();
    }
    this.nodeBits = bits;
    this.spreadMask = seqMask >>> 1;
    // (0, 0) is never issued; with a high-water mark the first position is (startTick + 1, 0).
    this.state = startTick < 0 ? 0 : (startTick << seqBits) | seqMask;
    this.high = -1; // no reading of the source seen yet
  }

  /** A builder with the defaults: Twitter's layout, the monotonic time source, no lead. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public long nextId() {
    long now = ticks();
    for (; ; ) {
      long s = state;
      long next = s + 1;
      long t = (next >>> seqBits) & tickMask;
      boolean fresh = t < now;
      if (fresh) {
        next = (s & cbStateMask) | (now << seqBits) | spread();
        t = now;
      }
      if (t > now + lead || t > maxTick) {
        return compose(reserve(1));
      }
      if (STATE.compareAndSet(this, s, next)) {
        if (fresh) {
          raiseHigh(next);
        }
        return compose(next);
      }
    }
  }

  @Override
  public void nextIds(long[] into) {
    if (into.length == 0) {
      return;
    }
    long first = reserve(into.length);
    for (int i = 0; i < into.length; i++) {
      into[i] = compose(first + i);
    }
  }

  /** Reserves n consecutive positions, handles clock steps, waits until their time has come. */
  private long reserve(int n) {
    for (; ; ) {
      long now = ticks();
      long s = state;
      long cbPart = s & cbStateMask;
      long first = s + 1;
      long t = (first - cbPart) >>> seqBits;
      boolean fresh = t < now;
      if (fresh) {
        first = cbPart | (now << seqBits) | spread();
        t = now;
      }
      long last = first + n - 1;
      long lastTick = (last - cbPart) >>> seqBits;
      if (lastTick > maxTick) {
        throw expired(now);
      }
      if (t > now + lead) {
        // Ahead of the source: a spent sequence (wait), or the source stepped back (policy).
        Long stepped = onAhead(s, t, now);
        if (stepped != null) {
          if (STATE.compareAndSet(this, s, stepped)) {
            raiseHigh(stepped);
            return stepped;
          }
          continue;
        }
      }
      if (STATE.compareAndSet(this, s, last)) {
        if (fresh) {
          raiseHigh(first);
        }
        if (lastTick > now + lead) {
          waits.increment();
          time.awaitMillis(epochMillis + (lastTick - lead) * unitMillis);
        }
        return first;
      }
    }
  }

  /**
   * Decides what to do when the next tick is ahead of the source by more than the lead: returns
   * null to reserve and wait, a new position to issue after a clockback step, or throws.
   */
  private Long onAhead(long s, long t, long now) {
    synchronized (slowPath) {
      long h = high;
      long cb = (s >>> cbShift) & cbMax;
      long reread = ticks(); // after reading `high`: a slow thread is not a clock step
      if (h < 0 || (h >>> tickBits) != cb || reread >= (h & tickMask) || reread > now) {
        return null; // the source did not go back: the sequence is spent, wait for it
      }
      clockSteps.increment();
      long lastMillis = epochMillis + ((s >>> seqBits) & tickMask) * unitMillis;
      long nowMillis = epochMillis + reread * unitMillis;
      switch (policy) {
        case FAIL:
          throw new ClockMovedBackwardsException(lastMillis, nowMillis, "clock policy is fail");
        case WAIT:
          if (t - lead - reread > maxWaitTicks) {
            throw new ClockMovedBackwardsException(
                lastMillis,
                nowMillis,
                "more than the wait policy's bound of " + maxWaitTicks * unitMillis + " ms");
          }
          return null;
        case CLOCKBACK:
        default:
          if (cb >= cbMax || reread < 0) {
            throw new ClockMovedBackwardsException(
                lastMillis,
                nowMillis,
                "the clockback field counted its maximum of " + cbMax + " steps");
          }
          return ((cb + 1) << cbShift) | (reread << seqBits) | spread();
      }
    }
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

  private long spread() {
    return ThreadLocalRandom.current().nextLong() & spreadMask;
  }

  private long compose(long position) {
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

  /** The node field values this generator stamps into every ID. */
  public Map<String, Long> node() {
    return node;
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
    return "Snowflake[" + layout.spec() + ", node=" + node + ", time=" + time + ", " + policy + "]";
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
     * Builds the generator.
     *
     * @throws InvalidSettingException if a node field has no value or the policy needs a field the
     *     layout lacks
     * @throws LayoutExpiredException if the time source is past the layout's last instant
     * @throws ClockMovedBackwardsException if the time source is behind the high-water mark by more
     *     than the wait bound
     */
    public Snowflake build() {
      for (Layout.Field f : layout.nodeFields()) {
        if (!node.containsKey(f.name())) {
          throw new InvalidSettingException(
              f.name(), "unset", "0.." + f.max() + " (every node field of the layout needs one)");
        }
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
      long startTick = -1;
      if (startAfterMillis != Long.MIN_VALUE) {
        startTick = Math.max(-1, Math.floorDiv(startAfterMillis - layout.epochMillis(), unit));
        if (startTick >= layout.maxTime()) {
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
      return new Snowflake(this, startTick);
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
