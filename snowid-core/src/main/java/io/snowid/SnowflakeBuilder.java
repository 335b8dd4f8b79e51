package io.snowid;

import io.snowid.node.NodeIdChain;
import io.snowid.node.NodeLease;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

/**
 * Configures a {@link Snowflake}: {@link Snowflake#builder()} gives one with every default. Each
 * setter validates at once, and {@link #build()} checks the combination against one reading of the
 * time source; a refused setting is an {@link InvalidSettingException} naming the setting, the
 * value and what is allowed, and changes nothing. {@link #build()} leaves the builder as it was:
 * building again gives an independent generator (leasing its own node values from a {@link
 * #nodeSource}).
 *
 * <p>The settings, their defaults and what is refused:
 *
 * <ul>
 *   <li>{@link #layout}: {@link Layout#twitter()}. Refused: null, a preset name or spec that {@link
 *       Layout#preset} does not take, and at {@code build()} a layout with {@code wrap=true} (that
 *       is {@link Int32Generator}'s). Setting it clears the node values set before.
 *   <li>{@link #node(String, long)}: none. Refused: a field that is not a node field of the layout,
 *       a value outside {@code 0..max} of the field; at {@code build()}, with neither a lease nor a
 *       node source, a node field left without a value ({@code unset}).
 *   <li>{@link #nodeSource}: none (the {@code node} values alone). Refused: null or blank; at
 *       {@code build()}, a {@code static:} form with an unknown field, a value out of range or a
 *       field given twice, and a source that cannot give values ({@link
 *       io.snowid.node.NodeIdUnavailableException}).
 *   <li>{@link #lease}: none; taken before a node source. Refused: null.
 *   <li>{@link #timeSource}: {@link TimeSource#monotonic()}. Refused: null.
 *   <li>{@link #clockPolicy}: {@link ClockPolicy#WAIT}. Refused: null, a name other than {@code
 *       wait}, {@code fail} or {@code clockback}; at {@code build()}, {@code clockback} on a layout
 *       without a clockback field.
 *   <li>{@link #maxWait}: 1 s. Refused: null, negative, more than 1 min.
 *   <li>{@link #maxLead}: zero. Refused: null, negative, more than 1 min.
 *   <li>{@link #startAfter}: none. At {@code build()}: {@link ClockMovedBackwardsException} if it
 *       is ahead of the time source by more than {@code maxWait}, {@link LayoutExpiredException} if
 *       it lies in or past the layout's last time unit.
 *   <li>The time source, at {@code build()}: {@link LayoutExpiredException} past the layout's last
 *       instant; refused ({@code layout.epoch}) before the layout's epoch.
 *   <li>The node values, at {@code build()}: {@link NodeValuesInUseException} while another live
 *       generator of this JVM holds the same ones.
 * </ul>
 */
public final class SnowflakeBuilder {
  private static final Duration MAX_LEAD = Duration.ofMinutes(1);
  private static final Duration MAX_WAIT = Duration.ofMinutes(1);

  private Layout layout = Layout.twitter();
  private TimeSource time;
  private ClockPolicy policy = ClockPolicy.WAIT;
  private Duration maxWait = Duration.ofSeconds(1);
  private Duration maxLead = Duration.ZERO;
  private long startAfterMillis = Long.MIN_VALUE;
  private final Map<String, Long> node = new LinkedHashMap<>();
  private String nodeSpec;
  private NodeLease lease;
  private RandomGenerator random;

  SnowflakeBuilder() {}

  private static String text(Duration d) {
    return d == null ? "null" : Durations.format(d);
  }

  /** The ID layout; default {@link Layout#twitter()}. Clears node values set before. */
  public SnowflakeBuilder layout(Layout layout) {
    if (layout == null) {
      throw new InvalidSettingException("layout", null, "a layout");
    }
    this.layout = layout;
    node.clear();
    return this;
  }

  /** The ID layout by preset name or spec string. */
  public SnowflakeBuilder layout(String presetOrSpec) {
    return layout(Layout.preset(presetOrSpec));
  }

  /**
   * The value of one node field of the layout, e.g. {@code node("worker", 7)}.
   *
   * @throws InvalidSettingException if the layout has no such node field or the value does not fit
   *     it
   */
  public SnowflakeBuilder node(String field, long value) {
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
  public SnowflakeBuilder node(Map<String, Long> values) {
    values.forEach(this::node);
    return this;
  }

  /**
   * Where the node field values come from, resolved at {@link #build()}:
   *
   * <ul>
   *   <li>{@code auto}: explicit {@link #node} values, then {@link NodeIdChain#standard()};
   *   <li>{@code static:worker=3,datacenter=1}: exactly these values;
   *   <li>a lease coordinator URI ({@code file:DIR}, {@code redis://…} with snowid-redis, {@code
   *       jdbc:postgresql://…} with snowid-jdbc): a lease that the generator renews and releases on
   *       {@link Snowflake#close()}.
   * </ul>
   */
  public SnowflakeBuilder nodeSource(String spec) {
    if (spec == null || spec.isBlank()) {
      throw new InvalidSettingException("node", spec, NodeSources.FORMS);
    }
    this.nodeSpec = spec.trim();
    return this;
  }

  /**
   * Node values from a lease that the caller opened and will close; the generator issues only while
   * the lease's current grant is valid.
   */
  public SnowflakeBuilder lease(NodeLease lease) {
    if (lease == null) {
      throw new InvalidSettingException("lease", null, "a NodeLease");
    }
    this.lease = lease;
    return this;
  }

  /** The time source; default {@link TimeSource#monotonic()}. */
  public SnowflakeBuilder timeSource(TimeSource source) {
    if (source == null) {
      throw new InvalidSettingException("timeSource", null, "a TimeSource");
    }
    this.time = source;
    return this;
  }

  /** What to do when the time source steps back; default {@link ClockPolicy#WAIT}. */
  public SnowflakeBuilder clockPolicy(ClockPolicy policy) {
    if (policy == null) {
      throw new InvalidSettingException("clockPolicy", null, "wait, fail or clockback");
    }
    this.policy = policy;
    return this;
  }

  /** The clock policy by name: {@code wait}, {@code fail} or {@code clockback}. */
  public SnowflakeBuilder clockPolicy(String name) {
    return clockPolicy(ClockPolicy.named(name));
  }

  /**
   * The longest clock step back the {@code wait} policy waits out; default 1 s, at most 1 min. The
   * bound is per call: steps that one call meets one after the other add up.
   */
  public SnowflakeBuilder maxWait(Duration wait) {
    if (wait == null || wait.isNegative() || wait.compareTo(MAX_WAIT) > 0) {
      throw new InvalidSettingException("maxWait", text(wait), "0s..1m");
    }
    this.maxWait = wait;
    return this;
  }

  /**
   * How far ahead of the time source a burst may run before callers wait: IDs may carry a time up
   * to this much in the future. Default zero; at most one minute.
   */
  public SnowflakeBuilder maxLead(Duration lead) {
    if (lead == null || lead.isNegative() || lead.compareTo(MAX_LEAD) > 0) {
      throw new InvalidSettingException("maxLead", text(lead), "0s..1m");
    }
    this.maxLead = lead;
    return this;
  }

  /**
   * A high-water mark: every ID will carry a time strictly after this Unix millisecond (the last
   * time a previous holder of the same node values may have issued). If the time source is behind
   * it by no more than {@link #maxWait}, the first call waits; by more, {@link #build()} fails.
   */
  public SnowflakeBuilder startAfter(long unixMillis) {
    this.startAfterMillis = unixMillis;
    return this;
  }

  /**
   * For tests: the random source of a quiet tick's first sequence, so that statistical tests are
   * seeded and cannot fail by chance. Default (or {@code null}): {@link ThreadLocalRandom}. The
   * generator calls it from every issuing thread: a shared source must be thread-safe.
   */
  SnowflakeBuilder random(RandomGenerator random) {
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
    SnowflakeSettings settings = settings();
    checkStart(settings);
    NodeSources.Resolved resolved = NodeSources.resolve(settings); // may open a lease
    try {
      return new Snowflake(settings, resolved);
    } catch (RuntimeException e) {
      if (resolved.ownsLease()) {
        resolved.lease().close();
      }
      throw e;
    }
  }

  /** The settings with their defaults, checked in combination. */
  private SnowflakeSettings settings() {
    if (layout.wraps()) {
      throw new InvalidSettingException(
          "layout", layout.spec(), "a layout without wrap=true (for int32 use Int32Generator)");
    }
    if (policy == ClockPolicy.CLOCKBACK && layout.clockbackField().isEmpty()) {
      throw new InvalidSettingException(
          "clockPolicy", "clockback", "wait or fail: layout " + layout + " has no clockback field");
    }
    return new SnowflakeSettings(
        layout,
        time == null ? TimeSource.monotonic() : time,
        policy,
        maxWait,
        maxLead,
        startAfterMillis,
        node,
        nodeSpec,
        lease,
        random);
  }

  /** Checks the settings against one reading of the time source. */
  private static void checkStart(SnowflakeSettings s) {
    Layout layout = s.layout();
    long unit = layout.unitMillis();
    long nowMillis = s.time().millis();
    long nowTicks = Math.floorDiv(nowMillis - layout.epochMillis(), unit);
    if (nowTicks > layout.maxTime()) {
      throw new LayoutExpiredException(
          layout.spec(), layout.lastInstant(), Instant.ofEpochMilli(nowMillis));
    }
    if (nowTicks < 0) {
      throw new InvalidSettingException(
          "layout.epoch", layout.epoch(), "not after the time source's now " + nowMillis);
    }
    long startAfter = s.startAfterMillis();
    if (startAfter != Long.MIN_VALUE) {
      if (Math.floorDiv(startAfter - layout.epochMillis(), unit) >= layout.maxTime()) {
        throw new LayoutExpiredException(
            layout.spec(), layout.lastInstant(), Instant.ofEpochMilli(startAfter));
      }
      if (startAfter - nowMillis > s.maxWait().toMillis()) {
        throw new ClockMovedBackwardsException(
            startAfter,
            nowMillis,
            "the node's high-water mark is ahead of the time source by more than maxWait "
                + s.maxWait());
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
