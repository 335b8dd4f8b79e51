package io.snowid;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The bit layout of an ID: which fields it has, how wide each is, where it sits, and what the time
 * field counts from (the epoch) and in which unit. Immutable and thread-safe.
 *
 * <p>A layout is written as a spec string, fields from the most significant bit down, then the
 * options: {@code
 * time=41,datacenter=5,worker=5,sequence=12,epoch=2010-11-04T01:42:54.657Z,unit=1ms}. {@code time}
 * and {@code sequence} are required, {@code clockback} is the optional clock-step counter, any
 * other name is a node field. {@link #spec()} prints the canonical form, which {@link #parse} reads
 * back to an equal layout.
 *
 * <p>Fields total at most 63 bits, so that every ID is a positive {@code long}; 64 bits are
 * accepted when {@code time} is the top field (Discord, Instagram): such a layout decodes IDs as
 * unsigned and generates only while the top bit stays clear, which {@link #lastInstant()} accounts
 * for.
 */
public final class Layout {

  /** One bit field of a layout. {@code shift} is the position of its least significant bit. */
  public record Field(String name, int bits, int shift) {
    /** The largest value the field holds. */
    public long max() {
      return (1L << bits) - 1;
    }

    /** Whether this is a node field (neither time, sequence nor clockback). */
    public boolean isNode() {
      return !name.equals(TIME) && !name.equals(SEQUENCE) && !name.equals(CLOCKBACK);
    }

    long extract(long id) {
      return (id >>> shift) & max();
    }
  }

  static final String TIME = "time";
  static final String SEQUENCE = "sequence";
  static final String CLOCKBACK = "clockback";

  private final List<Field> fields;
  private final Map<String, Field> byName;
  private final long epochMillis;
  private final long unitMillis;
  private final int totalBits;
  private final long maxTime;
  private final boolean wrap;
  private final String spec;

  Layout(List<Field> fields, long epochMillis, long unitMillis, boolean wrap) {
    this.fields = List.copyOf(fields);
    Map<String, Field> map = new LinkedHashMap<>();
    int bits = 0;
    for (Field f : fields) {
      map.put(f.name(), f);
      bits += f.bits();
    }
    this.byName = Collections.unmodifiableMap(map);
    this.epochMillis = epochMillis;
    this.unitMillis = unitMillis;
    this.totalBits = bits;
    Field time = map.get(TIME);
    // With 64 bits the time field owns the sign bit: generation stops before setting it.
    this.maxTime = bits == 64 ? time.max() >>> 1 : time.max();
    this.wrap = wrap;
    this.spec = LayoutSpec.print(this);
  }

  /**
   * Reads a spec string.
   *
   * @throws InvalidSettingException naming the part of the spec that is wrong and what is allowed
   */
  public static Layout parse(String spec) {
    return LayoutSpec.parse(spec);
  }

  /**
   * A named layout: {@code twitter}, {@code westid}, {@code discord}, {@code instagram}, {@code
   * sonyflake}, {@code baidu}, {@code js53}, {@code int32}. A string containing {@code =} is parsed
   * as a spec instead, so that every option that takes a layout accepts both.
   *
   * @throws InvalidSettingException for an unknown name, listing the known ones
   */
  public static Layout preset(String name) {
    if (name.indexOf('=') >= 0) {
      return parse(name);
    }
    return Presets.get(name);
  }

  /** Names of the presets, in the order of {@link #preset}. */
  public static List<String> presetNames() {
    return Presets.names();
  }

  /** Twitter's layout, snowid's default: 41 bits of milliseconds since 2010-11-04T01:42:54.657Z. */
  public static Layout twitter() {
    return Presets.get("twitter");
  }

  /** Bit fields, most significant first. */
  public List<Field> fields() {
    return fields;
  }

  /** The field of that name, if the layout has one. */
  public Optional<Field> field(String name) {
    return Optional.ofNullable(byName.get(name));
  }

  /** Node fields, most significant first. */
  public List<Field> nodeFields() {
    List<Field> out = new ArrayList<>();
    for (Field f : fields) {
      if (f.isNode()) {
        out.add(f);
      }
    }
    return out;
  }

  public Field timeField() {
    return byName.get(TIME);
  }

  public Field sequenceField() {
    return byName.get(SEQUENCE);
  }

  public Optional<Field> clockbackField() {
    return field(CLOCKBACK);
  }

  /** Sum of the field widths: at most 63, or 64 for an unsigned layout. */
  public int totalBits() {
    return totalBits;
  }

  public Instant epoch() {
    return Instant.ofEpochMilli(epochMillis);
  }

  public long epochMillis() {
    return epochMillis;
  }

  /** The length of one step of the time field. */
  public Duration unit() {
    return Duration.ofMillis(unitMillis);
  }

  public long unitMillis() {
    return unitMillis;
  }

  /** The largest time-field value this layout generates (less than the field max when 64 bits). */
  public long maxTime() {
    return maxTime;
  }

  /**
   * The last instant an ID of this layout can carry: the last millisecond of its last tick. A
   * {@linkplain #wraps() wrapping} layout has none: {@link Instant#MAX}.
   */
  public Instant lastInstant() {
    if (wrap) {
      return Instant.MAX;
    }
    return Instant.ofEpochMilli(epochMillis + (maxTime + 1) * unitMillis - 1);
  }

  /**
   * Whether the time field counts modulo its range ({@code wrap=true}, as the {@code int32}
   * preset): IDs repeat after {@link #wrapWindow()} and are unique only within it.
   */
  public boolean wraps() {
    return wrap;
  }

  /** How long the time field takes to go round: {@code 2^bits} units. */
  public Duration wrapWindow() {
    return Duration.ofMillis((timeField().max() + 1) * unitMillis);
  }

  /** Time left from {@code now} until after {@link #lastInstant()}; zero or negative once over. */
  public Duration remainingLifetime(Instant now) {
    return Duration.between(now, lastInstant().plusMillis(1));
  }

  /** How many distinct node ids the node fields hold together. */
  public long nodeCount() {
    int bits = 0;
    for (Field f : nodeFields()) {
      bits += f.bits();
    }
    return 1L << bits;
  }

  /** IDs one node can issue per time unit. */
  public long sequenceCapacity() {
    return sequenceField().max() + 1;
  }

  /** IDs one node can issue per second at most (sequence capacity × units per second). */
  public double idsPerSecondPerNode() {
    return sequenceCapacity() * 1000.0 / unitMillis;
  }

  /**
   * The smallest ID this layout can give in the time unit that contains {@code instant}. With
   * {@link #lastIdAt} it bounds the IDs issued over a stretch of time, so that a table keyed by
   * them answers {@code WHERE id BETWEEN firstIdAt(from) AND lastIdAt(to)} from its primary key,
   * without a timestamp column. Whole units: an ID does not tell its time more finely, so the first
   * ID of the unit that contains {@code from} may have been issued a moment before it. The bounds
   * of consecutive units touch: {@code lastIdAt(t) + 1 == firstIdAt(t.plus(unit()))}.
   *
   * @throws InvalidSettingException for an instant before {@link #epoch()} or after {@link
   *     #lastInstant()}, a {@linkplain #wraps() wrapping} layout (its IDs repeat, so no range
   *     belongs to one instant), or a layout whose time field is not the most significant (its IDs
   *     of one instant are not one range)
   */
  public long firstIdAt(Instant instant) {
    return unitAt(instant) << timeField().shift();
  }

  /**
   * The largest ID this layout can give in the time unit that contains {@code instant}: see {@link
   * #firstIdAt}.
   *
   * @throws InvalidSettingException as {@link #firstIdAt}
   */
  public long lastIdAt(Instant instant) {
    return firstIdAt(instant) | ((1L << timeField().shift()) - 1);
  }

  private long unitAt(Instant instant) {
    if (wrap) {
      throw new InvalidSettingException(
          "layout",
          spec,
          "a layout that does not wrap (this one repeats its IDs every "
              + Durations.format(wrapWindow())
              + ", so an ID range does not belong to one instant)");
    }
    if (fields.get(0) != timeField()) {
      throw new InvalidSettingException(
          "layout",
          spec,
          "a layout whose time field is the most significant (here "
              + fields.get(0).name()
              + " is: the IDs of one instant are not one range)");
    }
    long millis;
    try {
      millis = instant.toEpochMilli();
    } catch (ArithmeticException e) {
      millis = instant.isBefore(Instant.EPOCH) ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    if (millis < epochMillis || millis > lastInstant().toEpochMilli()) {
      throw new InvalidSettingException(
          "instant", instant, epoch() + ".." + lastInstant() + ", the lifetime of layout " + spec);
    }
    return Math.floorDiv(millis - epochMillis, unitMillis);
  }

  /**
   * Composes an ID from one value per field, in the order of {@link #fields()}.
   *
   * @throws InvalidSettingException if the count is wrong or a value is outside its field
   */
  public long compose(long... values) {
    if (values.length != fields.size()) {
      throw new InvalidSettingException(
          "values", values.length + " values", fields.size() + " values, one per field of " + spec);
    }
    long id = 0;
    for (int i = 0; i < values.length; i++) {
      Field f = fields.get(i);
      long v = values[i];
      long max = f.name().equals(TIME) ? maxTime : f.max();
      if (v < 0 || v > max) {
        throw new InvalidSettingException(f.name(), v, "0.." + max);
      }
      id |= v << f.shift();
    }
    return id;
  }

  /**
   * Composes an ID from field values by name; every field must be given.
   *
   * @throws InvalidSettingException if a field is missing, unknown or out of range
   */
  public long compose(Map<String, Long> values) {
    for (String name : values.keySet()) {
      if (!byName.containsKey(name)) {
        throw new InvalidSettingException(name, values.get(name), "a field of " + spec);
      }
    }
    long[] ordered = new long[fields.size()];
    for (int i = 0; i < ordered.length; i++) {
      Long v = values.get(fields.get(i).name());
      if (v == null) {
        throw new InvalidSettingException(fields.get(i).name(), "missing", "a value");
      }
      ordered[i] = v;
    }
    return compose(ordered);
  }

  /**
   * Splits an ID into its fields. A layout of 63 or fewer bits rejects IDs with bits above its
   * width (negative longs, read as unsigned 64-bit values, included); a 64-bit layout reads the ID
   * as unsigned.
   *
   * @throws InvalidIdException if the ID cannot belong to this layout
   */
  public DecodedId decode(long id) {
    return decode(id, Instant.now());
  }

  /**
   * As {@link #decode(long)}; for a {@linkplain #wraps() wrapping} layout the instant is the latest
   * one not after {@code reference} that the time field matches.
   */
  public DecodedId decode(long id, Instant reference) {
    if (totalBits < 64 && (id >>> totalBits) != 0) {
      // Named unsigned, as text forms read it: 18446744073709551615, never -1.
      throw new InvalidIdException(
          Long.toUnsignedString(id),
          "wider than the "
              + totalBits
              + " bits of layout "
              + spec
              + " (its IDs are 0.."
              + ((1L << totalBits) - 1)
              + ")");
    }
    return new DecodedId(id, this, wrap ? reference.toEpochMilli() : 0);
  }

  /**
   * The ID space this layout issues into, as a key: what decides which 64-bit value an ID gets —
   * the epoch, the unit, and the position and width of the time, node, clockback and sequence bits
   * — and nothing else. Field names do not count: adjacent node fields are one block, so {@code
   * datacenter=5,worker=5} and {@code worker=10} are one space ({@code t41-n10-s12-e…-u1}). Two
   * generators of one space and namespace may share no node value; leases are keyed by it.
   */
  public String idSpace() {
    StringBuilder sb = new StringBuilder();
    char last = 0;
    int run = 0;
    for (Field f : fields) {
      char kind =
          f.isNode() ? 'n' : f.name().equals(TIME) ? 't' : f.name().equals(SEQUENCE) ? 's' : 'c';
      if (kind == 'n' && last == 'n') {
        run += f.bits();
        continue;
      }
      if (last != 0) {
        sb.append(last).append(run).append('-');
      }
      last = kind;
      run = f.bits();
    }
    sb.append(last).append(run);
    sb.append("-e").append(epochMillis).append("-u").append(unitMillis);
    return wrap ? sb.append("-w").toString() : sb.toString();
  }

  /**
   * The node values packed into one number, node fields from the most significant down: the value a
   * lease is taken on. Missing fields count as 0.
   */
  public long packNode(Map<String, Long> values) {
    long packed = 0;
    for (Field f : nodeFields()) {
      Long v = values.get(f.name());
      packed = (packed << f.bits()) | (v == null ? 0 : v & f.max());
    }
    return packed;
  }

  /** The node values of a packed number, in layout order: the inverse of {@link #packNode}. */
  public Map<String, Long> unpackNode(long packed) {
    List<Field> node = nodeFields();
    long[] values = new long[node.size()];
    long rest = packed;
    for (int i = node.size() - 1; i >= 0; i--) {
      values[i] = rest & node.get(i).max();
      rest >>>= node.get(i).bits();
    }
    Map<String, Long> out = new LinkedHashMap<>();
    for (int i = 0; i < node.size(); i++) {
      out.put(node.get(i).name(), values[i]);
    }
    return out;
  }

  /** The packed bits of the named node fields: set where {@link #packNode} puts those fields. */
  public long nodeMask(java.util.Collection<String> names) {
    long mask = 0;
    for (Field f : nodeFields()) {
      mask = (mask << f.bits()) | (names.contains(f.name()) ? f.max() : 0);
    }
    return mask;
  }

  /** How many bits the node fields have together. */
  public int nodeBits() {
    int bits = 0;
    for (Field f : fields) {
      if (f.isNode()) {
        bits += f.bits();
      }
    }
    return bits;
  }

  /** The canonical spec string. */
  public String spec() {
    return spec;
  }

  @Override
  public String toString() {
    return spec;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Layout other && other.spec.equals(spec);
  }

  @Override
  public int hashCode() {
    return spec.hashCode();
  }
}
