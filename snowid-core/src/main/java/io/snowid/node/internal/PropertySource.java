package io.snowid.node.internal;

import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import io.snowid.node.HostEnvironment;
import io.snowid.node.NodeIdSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Node field values from system properties {@code snowid.<field>-id} or env {@code
 * SNOWID_<FIELD>_ID}.
 */
public final class PropertySource implements NodeIdSource {
  private final String name;
  private final UnaryOperator<String> lookup;
  private final boolean environment;

  private PropertySource(String name, UnaryOperator<String> lookup, boolean environment) {
    this.name = name;
    this.lookup = lookup;
    this.environment = environment;
  }

  public static PropertySource systemProperties() {
    return new PropertySource("system property", System::getProperty, false);
  }

  public static PropertySource environment(HostEnvironment env) {
    return new PropertySource("environment", env::variable, true);
  }

  static String key(Layout.Field field, boolean environment) {
    return environment
        ? "SNOWID_" + field.name().toUpperCase(Locale.ROOT).replace('-', '_') + "_ID"
        : "snowid." + field.name() + "-id";
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String lookedAt(Layout.Field field) {
    return name + " " + key(field, environment);
  }

  @Override
  public Map<String, Long> resolve(Layout layout, List<Layout.Field> wanted) {
    Map<String, Long> out = new LinkedHashMap<>();
    for (Layout.Field f : wanted) {
      String key = key(f, environment);
      String raw = lookup.apply(key);
      if (raw == null || raw.isBlank()) {
        continue;
      }
      long value;
      try {
        value = Long.parseLong(raw.trim());
      } catch (NumberFormatException e) {
        throw new InvalidSettingException(key, raw, "0.." + f.max());
      }
      if (value < 0 || value > f.max()) {
        throw new InvalidSettingException(key, raw, "0.." + f.max());
      }
      out.put(f.name(), value);
    }
    return out;
  }
}
