package io.snowid.spring.boot;

import io.snowid.InvalidSettingException;
import io.snowid.spring.boot.GeneratorNames.UnknownSettingException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Every key under {@code snowid.} that the application sets (a property file, the command line, a
 * system property) is a setting of the starter's or one snowid itself reads, else the start fails
 * naming it, with the setting it most likely misspells: a misspelt {@code snowid.node} would
 * otherwise leave each host on its own lease directory. Keys under {@code snowid.generators} are
 * {@link GeneratorNames}'. Environment variables are not checked: {@code SNOWID_*} ones are also
 * the command line's and the core's, which the starter does not read.
 */
final class SnowIdKeys {
  /** The starter's settings, dashed; {@code .*} ends a map's key. */
  private static final List<String> SETTINGS =
      Stream.concat(
              GeneratorNames.settings(SnowIdProperties.class, "").stream(),
              GeneratorNames.settings(SnowIdMybatisPlusProperties.class, "mybatis-plus.").stream())
          .sorted()
          .toList();

  /**
   * System properties snowid's core reads: {@code snowid.<field>-id} (static node values), {@code
   * snowid.statefulset}, {@code snowid.host-claim}; in uniform form.
   */
  private static final Pattern CORE = Pattern.compile("[a-z0-9]+id|statefulset|hostclaim");

  private SnowIdKeys() {}

  /**
   * @throws InvalidSettingException for a key under {@code snowid.} that is no setting
   */
  static void check(Environment environment) {
    ConfigurationPropertyName root = ConfigurationPropertyName.of("snowid");
    for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
      if (!(source instanceof IterableConfigurationPropertySource iterable)
          || source.getUnderlyingSource() instanceof SystemEnvironmentPropertySource) {
        continue;
      }
      for (ConfigurationPropertyName key : iterable.filter(root::isAncestorOf)) {
        if (!known(key)) {
          throw unknown(key, source);
        }
      }
    }
  }

  private static boolean known(ConfigurationPropertyName key) {
    List<String> elements = new ArrayList<>();
    for (int i = 1; i < key.getNumberOfElements(); i++) {
      elements.add(key.getElement(i, Form.UNIFORM));
    }
    if (elements.get(0).equals("generators")
        || (elements.size() == 1 && CORE.matcher(elements.get(0)).matches())) {
      return true;
    }
    for (String setting : SETTINGS) {
      boolean map = setting.endsWith(".*");
      String[] parts = (map ? setting.substring(0, setting.length() - 2) : setting).split("\\.");
      if (elements.size() < parts.length) {
        continue;
      }
      boolean same = true;
      for (int i = 0; i < parts.length && same; i++) {
        same = elements.get(i).equals(GeneratorNames.uniform(parts[i]));
      }
      if (same && (map ? elements.size() == parts.length + 1 : listIndexes(key, parts.length))) {
        return true;
      }
    }
    return false;
  }

  /** Whether the key's elements after the setting's are a list's indexes only. */
  private static boolean listIndexes(ConfigurationPropertyName key, int parts) {
    for (int i = 1 + parts; i < key.getNumberOfElements(); i++) {
      if (!key.isNumericIndex(i)) {
        return false;
      }
    }
    return true;
  }

  private static InvalidSettingException unknown(
      ConfigurationPropertyName key, ConfigurationPropertySource source) {
    StringBuilder given = new StringBuilder();
    for (int i = 1; i < key.getNumberOfElements(); i++) {
      given.append(given.length() == 0 ? "" : ".").append(key.getElement(i, Form.DASHED));
    }
    List<String> plain = SETTINGS.stream().map(s -> s.replace(".*", "")).toList();
    String meant =
        InvalidSettingException.nearMiss(given.toString(), plain)
            .map(s -> "; did you mean snowid." + s + "?")
            .orElse("");
    return new UnknownSettingException(
        "snowid." + given,
        GeneratorNames.value(source.getConfigurationProperty(key)),
        "a setting of snowid: "
            + String.join(", ", SETTINGS.stream().map(s -> "snowid." + s).toList())
            + meant);
  }
}
