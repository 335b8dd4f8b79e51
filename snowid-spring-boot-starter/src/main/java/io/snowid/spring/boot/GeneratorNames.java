package io.snowid.spring.boot;

import io.snowid.InvalidSettingException;
import io.snowid.lease.Secrets;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;

/**
 * The names of {@code snowid.generators.<name>}, read from the environment before any bean is made:
 * each name checked (it becomes a qualifier, a health component and a meter tag), and every key
 * under it one of a generator's settings, else the start fails naming it (with the setting it most
 * likely misspells).
 */
final class GeneratorNames {
  /** The unnamed generator's name in health, meters and the {@code snowid} endpoint. */
  static final String DEFAULT = "default";

  private static final String PREFIX = "snowid.generators";
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,39}");
  private static final String FORM =
      "a name of lower-case letters, digits and '-', starting with a letter, at most 40"
          + " characters (it is the generator's qualifier, health component and meter tag), not "
          + DEFAULT
          + " (the unnamed generator's), e.g. snowid.generators.invoices.layout";

  /** A generator's settings in dashed form; {@code .*} ends a map's key. */
  private static final List<String> SETTINGS = settings(GeneratorProperties.class, "");

  private GeneratorNames() {}

  /** Whether {@code snowid.enabled} is not {@code false}: the starter makes its generators. */
  static boolean enabled(Environment environment) {
    return environment.getProperty("snowid.enabled", Boolean.class, true);
  }

  /** {@code snowid.generators.<name>.}, where a named generator's settings are. */
  static String prefix(String name) {
    return PREFIX + "." + name + ".";
  }

  /**
   * The generator names set in {@code environment}, in the order first seen.
   *
   * @throws InvalidSettingException for a name not of the allowed form, or a key under a name that
   *     is no setting of a generator
   */
  static Set<String> of(Environment environment) {
    ConfigurationPropertyName root = ConfigurationPropertyName.of(PREFIX);
    Set<String> names = new LinkedHashSet<>();
    for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
      if (!(source instanceof IterableConfigurationPropertySource iterable)) {
        continue;
      }
      for (ConfigurationPropertyName key : iterable.filter(root::isAncestorOf)) {
        String name = key.getElement(2, Form.ORIGINAL);
        checkName(name);
        if (key.getNumberOfElements() == 3) {
          ConfigurationProperty p = source.getConfigurationProperty(key);
          throw new UnknownSettingException(
              prefix(name).substring(0, prefix(name).length() - 1),
              value(p),
              "settings under it, e.g. " + prefix(name) + "layout");
        }
        checkSetting(name, key, source.getConfigurationProperty(key));
        names.add(name);
      }
    }
    return names;
  }

  /**
   * @throws InvalidSettingException for a name that is not of the allowed form
   */
  static void checkName(String name) {
    if (!NAME.matcher(name).matches() || name.endsWith("-") || name.equals(DEFAULT)) {
      throw new InvalidSettingException(PREFIX, name, FORM);
    }
  }

  private static void checkSetting(
      String name, ConfigurationPropertyName key, ConfigurationProperty p) {
    List<String> elements = new ArrayList<>();
    for (int i = 3; i < key.getNumberOfElements(); i++) {
      elements.add(key.getElement(i, Form.UNIFORM));
    }
    for (String setting : SETTINGS) {
      if (matches(setting, elements, key)) {
        return;
      }
    }
    StringBuilder given = new StringBuilder();
    for (int i = 3; i < key.getNumberOfElements(); i++) {
      given.append(given.length() == 0 ? "" : ".").append(key.getElement(i, Form.DASHED));
    }
    List<String> plain = SETTINGS.stream().map(s -> s.replace(".*", "")).toList();
    String meant =
        InvalidSettingException.nearMiss(given.toString(), plain)
            .map(s -> "; did you mean " + prefix(name) + s + "?")
            .orElse("");
    throw new UnknownSettingException(
        prefix(name) + given,
        value(p),
        "a setting of a generator: " + String.join(", ", SETTINGS) + meant);
  }

  private static boolean matches(
      String setting, List<String> elements, ConfigurationPropertyName key) {
    boolean map = setting.endsWith(".*");
    String[] parts = (map ? setting.substring(0, setting.length() - 2) : setting).split("\\.");
    if (elements.size() < parts.length) {
      return false;
    }
    for (int i = 0; i < parts.length; i++) {
      if (!elements.get(i).equals(uniform(parts[i]))) {
        return false;
      }
    }
    if (map) {
      return elements.size() == parts.length + 1; // one key of the map
    }
    for (int i = 3 + parts.length; i < key.getNumberOfElements(); i++) {
      if (!key.isNumericIndex(i)) {
        return false; // a list's elements only: lease.fields[0]
      }
    }
    return true;
  }

  static String value(ConfigurationProperty p) {
    return p == null ? "" : Secrets.scrub(String.valueOf(p.getValue()));
  }

  static String uniform(String dashed) {
    return dashed.replace("-", "").toLowerCase(Locale.ROOT);
  }

  /** The settings of a properties class: its getters, nested classes of snowid's walked into. */
  static List<String> settings(Class<?> type, String prefix) {
    Set<String> out = new TreeSet<>();
    for (Method m : type.getMethods()) {
      String getter = m.getName();
      int from = getter.startsWith("get") ? 3 : getter.startsWith("is") ? 2 : -1;
      if (from < 0
          || m.getParameterCount() != 0
          || Modifier.isStatic(m.getModifiers())
          || m.getDeclaringClass() == Object.class) {
        continue;
      }
      String name = prefix + dashed(getter.substring(from));
      Class<?> r = m.getReturnType();
      if (Map.class.isAssignableFrom(r)) {
        out.add(name + ".*");
      } else if (r.getDeclaringClass() == SnowIdProperties.class && !r.isEnum()) {
        out.addAll(settings(r, name + "."));
      } else {
        out.add(name);
      }
    }
    return List.copyOf(out);
  }

  private static String dashed(String camel) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < camel.length(); i++) {
      char c = camel.charAt(i);
      if (Character.isUpperCase(c)) {
        if (i > 0) {
          sb.append('-');
        }
        sb.append(Character.toLowerCase(c));
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  /** A key that is no setting: said so, not as a value out of range. */
  static final class UnknownSettingException extends InvalidSettingException {
    private static final long serialVersionUID = 1L;

    UnknownSettingException(String setting, String value, String allowed) {
      super(setting, value, allowed, setting + " is no setting of snowid; allowed: " + allowed);
    }
  }
}
