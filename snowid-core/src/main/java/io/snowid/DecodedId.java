package io.snowid;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An ID split into its fields by a {@link Layout}: the instant it carries, the raw time value, the
 * node fields by name (and {@code clockback}, when the layout has it) and the sequence.
 */
public final class DecodedId {
  private final long id;
  private final Layout layout;
  private final long time;
  private final long sequence;
  // Built on first use, not by decode: a decode that never asks for the fields allocates no map
  // for them. A race builds it twice, equal.
  private volatile Map<String, Long> fields;

  private final long timestampMillis;

  DecodedId(long id, Layout layout, long referenceMillis) {
    this.id = id;
    this.layout = layout;
    this.time = layout.timeField().extract(id);
    long millis = layout.epochMillis() + time * layout.unitMillis();
    if (layout.wraps()) {
      long window = layout.wrapWindow().toMillis();
      millis += Math.floorDiv(referenceMillis - millis, window) * window;
    }
    this.timestampMillis = millis;
    this.sequence = layout.sequenceField().extract(id);
  }

  /** The ID itself; for a 64-bit layout read it with {@link Long#toUnsignedString(long)}. */
  public long id() {
    return id;
  }

  public Layout layout() {
    return layout;
  }

  /** The instant of the start of the time unit the ID was issued in. */
  public Instant instant() {
    return Instant.ofEpochMilli(timestampMillis());
  }

  /** Unix milliseconds of {@link #instant()}. */
  public long timestampMillis() {
    return timestampMillis;
  }

  /** The raw value of the time field: units since the layout's epoch. */
  public long time() {
    return time;
  }

  public long sequence() {
    return sequence;
  }

  /** Node fields (and {@code clockback}) by name, most significant first. */
  public Map<String, Long> fields() {
    Map<String, Long> map = fields;
    if (map == null) {
      Map<String, Long> built = new LinkedHashMap<>();
      for (Layout.Field f : layout.fields()) {
        if (f.isNode() || f.name().equals(Layout.CLOCKBACK)) {
          built.put(f.name(), f.extract(id));
        }
      }
      map = Collections.unmodifiableMap(built);
      fields = map;
    }
    return map;
  }

  /**
   * The value of any field by name, including {@code time} and {@code sequence}.
   *
   * @throws InvalidSettingException if the layout has no such field
   */
  public long field(String name) {
    return layout
        .field(name)
        .map(f -> f.extract(id))
        .orElseThrow(() -> new InvalidSettingException("field", name, "one of " + names()));
  }

  private String names() {
    StringBuilder sb = new StringBuilder();
    for (Layout.Field f : layout.fields()) {
      sb.append(sb.length() == 0 ? "" : ", ").append(f.name());
    }
    return sb.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DecodedId d && d.id == id && d.layout.equals(layout);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(id) * 31 + layout.hashCode();
  }

  /**
   * The JSON form, as {@code snowid decode --json} and {@code GET /decode/{id}} print it: {@code
   * {"id":"…","timestamp":"…","fields":{…},"sequence":N}}. The ID is a string (unsigned for a
   * 64-bit layout), because JavaScript would round it as a number; the timestamp is ISO-8601 UTC;
   * the fields are in {@link #fields()} order.
   */
  public String toJson() {
    StringBuilder sb = new StringBuilder(128).append("{\"id\":\"");
    sb.append(layout.totalBits() == 64 ? Long.toUnsignedString(id) : Long.toString(id));
    sb.append("\",\"timestamp\":\"").append(instant()).append("\",\"fields\":{");
    boolean first = true;
    for (Map.Entry<String, Long> e : fields().entrySet()) {
      if (!first) {
        sb.append(',');
      }
      first = false;
      quote(sb, e.getKey()).append(':').append(e.getValue().longValue());
    }
    return sb.append("},\"sequence\":").append(sequence).append('}').toString();
  }

  private static StringBuilder quote(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c < 0x20) {
        sb.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.append('"');
  }

  /**
   * The ID, its instant and every field by name. For example, in the {@code twitter} layout: {@code
   * 1541815603606036480 = 2022-06-28T16:07:40.105Z datacenter=11 worker=26 sequence=0}.
   */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    sb.append(layout.totalBits() == 64 ? Long.toUnsignedString(id) : Long.toString(id));
    sb.append(" = ").append(instant());
    fields().forEach((k, v) -> sb.append(' ').append(k).append('=').append(v));
    return sb.append(" sequence=").append(sequence).toString();
  }
}
