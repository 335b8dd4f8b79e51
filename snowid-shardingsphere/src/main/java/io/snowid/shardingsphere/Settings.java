package io.snowid.shardingsphere;

import io.snowid.ClockPolicy;
import io.snowid.Durations;
import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import io.snowid.Snowflake;
import io.snowid.SnowflakeBuilder;
import io.snowid.TimeSource;
import io.snowid.lease.LeaseCoordinators;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The properties of a {@code SNOWID} key generator, checked: each one known, each value one the
 * builder takes. A refused property is an {@link InvalidSettingException} that names it (the
 * builder's own setting names are replaced by the property's), its allowed values and, for a near
 * miss, the name meant. Nothing is built or leased here.
 */
final class Settings {
  static final String NODE = "node";
  static final String LAYOUT = "layout";
  static final String CLOCK_SOURCE = "clock-source";
  static final String CLOCK_POLICY = "clock-policy";
  static final String MAX_WAIT = "max-wait";
  static final String MAX_LEAD = "max-lead";
  static final String FIELDS = "fields.";

  /** The property names, {@code fields.<field>} as its layout's node fields spell it. */
  static final List<String> NAMES =
      List.of(NODE, LAYOUT, CLOCK_SOURCE, CLOCK_POLICY, MAX_WAIT, MAX_LEAD, FIELDS + "<field>");

  private static final List<String> SOURCES = List.of("monotonic", "wall-clock");
  private static final List<String> POLICIES = List.of("wait", "fail", "clockback");

  private final Map<String, String> given;
  private final SnowflakeBuilder builder;

  private Settings(Map<String, String> given, SnowflakeBuilder builder) {
    this.given = given;
    this.builder = builder;
  }

  /**
   * The settings of {@code props} (keys and values taken as strings, trimmed; an empty value is
   * unset).
   *
   * @throws InvalidSettingException for an unknown property or a value out of range
   */
  static Settings of(Properties props) {
    Map<String, String> given = new TreeMap<>();
    for (Map.Entry<Object, Object> e : props.entrySet()) { // a number put in by code counts too
      String value = e.getValue() == null ? "" : String.valueOf(e.getValue()).trim();
      if (!value.isEmpty()) {
        given.put(String.valueOf(e.getKey()).trim(), value);
      }
    }
    for (String name : given.keySet()) {
      if (!known(name)) {
        throw new UnknownPropertyException(name, NAMES, nearMiss(name, given));
      }
    }
    Layout layout = Layout.preset(given.getOrDefault(LAYOUT, "twitter")); // refuses as `layout`
    SnowflakeBuilder builder =
        Snowflake.builder()
            .layout(layout)
            .timeSource(timeSource(given.get(CLOCK_SOURCE)))
            .clockPolicy(policy(given.get(CLOCK_POLICY), layout))
            .maxWait(duration(MAX_WAIT, given.get(MAX_WAIT), Duration.ofSeconds(1)))
            .maxLead(duration(MAX_LEAD, given.get(MAX_LEAD), Duration.ZERO));
    for (Map.Entry<String, String> e : given.entrySet()) {
      if (e.getKey().startsWith(FIELDS)) {
        field(builder, layout, e.getKey(), e.getValue());
      }
    }
    builder.nodeSource(given.getOrDefault(NODE, LeaseCoordinators.DEFAULT_FILE_URI));
    return new Settings(Map.copyOf(given), builder);
  }

  /** The properties as given (trimmed, empty ones left out): equal ones share a generator. */
  Map<String, String> key() {
    return given;
  }

  /** A builder with every setting applied; {@link SnowflakeBuilder#build()} leases. */
  SnowflakeBuilder builder() {
    return builder;
  }

  private static boolean known(String name) {
    return NAMES.contains(name) || (name.startsWith(FIELDS) && name.length() > FIELDS.length());
  }

  /** The property {@code name} most likely misspells: a name, or {@code fields.} for a field. */
  private static Optional<String> nearMiss(String name, Map<String, String> given) {
    int dot = name.indexOf('.');
    if (dot > 0 && name.length() > dot + 1) {
      return InvalidSettingException.nearMiss(name.substring(0, dot + 1), List.of(FIELDS))
          .map(f -> f + name.substring(dot + 1));
    }
    return InvalidSettingException.nearMiss(
        name, NAMES.stream().filter(n -> !given.containsKey(n)).toList());
  }

  private static TimeSource timeSource(String value) {
    if (value == null || value.equalsIgnoreCase("monotonic")) {
      return TimeSource.monotonic();
    }
    if (value.equalsIgnoreCase("wall-clock")) {
      return TimeSource.wallClock();
    }
    throw refused(CLOCK_SOURCE, value, SOURCES);
  }

  private static ClockPolicy policy(String value, Layout layout) {
    if (value == null) {
      return ClockPolicy.WAIT;
    }
    for (ClockPolicy p : ClockPolicy.values()) {
      if (p.toString().equalsIgnoreCase(value)) {
        if (p == ClockPolicy.CLOCKBACK && layout.clockbackField().isEmpty()) {
          throw new InvalidSettingException(
              CLOCK_POLICY, value, "wait or fail: layout " + layout + " has no clockback field");
        }
        return p;
      }
    }
    throw refused(CLOCK_POLICY, value, POLICIES);
  }

  private static Duration duration(String property, String value, Duration fallback) {
    if (value == null) {
      return fallback;
    }
    Duration d = Durations.parse(value).orElse(null);
    if (d == null || d.compareTo(Duration.ofMinutes(1)) > 0) {
      throw new InvalidSettingException(property, value, "a duration of 0s..1m (500ms, 1s, 1m)");
    }
    return d;
  }

  private static void field(SnowflakeBuilder builder, Layout layout, String name, String value) {
    String field = name.substring(FIELDS.length());
    List<String> fields =
        layout.fields().stream().filter(Layout.Field::isNode).map(Layout.Field::name).toList();
    if (!fields.contains(field)) {
      throw new InvalidSettingException(
          name,
          value,
          "fields.F with F a node field of the layout: "
              + String.join(", ", fields)
              + InvalidSettingException.nearMiss(field, fields)
                  .map(n -> "; did you mean " + FIELDS + n + "?")
                  .orElse(""));
    }
    long v;
    try {
      v = Long.parseLong(value);
    } catch (NumberFormatException e) {
      v = -1;
    }
    try {
      builder.node(field, v);
    } catch (InvalidSettingException e) {
      throw new InvalidSettingException(name, value, e.allowed());
    }
  }

  private static InvalidSettingException refused(
      String property, String value, List<String> allowed) {
    return new InvalidSettingException(
        property,
        value,
        String.join(", ", allowed)
            + InvalidSettingException.nearMiss(value, allowed)
                .map(n -> "; did you mean " + n + "?")
                .orElse(""));
  }
}
