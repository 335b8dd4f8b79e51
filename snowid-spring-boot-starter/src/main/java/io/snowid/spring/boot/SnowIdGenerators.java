package io.snowid.spring.boot;

import io.snowid.Snowflake;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;

/**
 * The application's snowid generators by name, for health, meters and the {@code snowid} endpoint:
 * {@code default} (the unnamed one, or the application's own {@code Snowflake}) first, then those
 * of {@code snowid.generators.<name>} in the order they are set.
 */
final class SnowIdGenerators {
  /**
   * One generator.
   *
   * @param counted its {@code IdGenerator} bean, null when the application has its own
   */
  record Entry(String name, Snowflake snowflake, CountedIdGenerator counted) {
    boolean isDefault() {
      return name.equals(GeneratorNames.DEFAULT);
    }
  }

  private final Map<String, Entry> byName;

  private SnowIdGenerators(Map<String, Entry> byName) {
    this.byName = Collections.unmodifiableMap(byName);
  }

  static SnowIdGenerators of(
      Collection<SnowIdNode> nodes,
      ObjectProvider<Snowflake> snowflakes,
      ObjectProvider<CountedIdGenerator> counted) {
    List<SnowIdNode> named = nodes.stream().filter(n -> n.name() != null).toList();
    List<Snowflake> namedSnowflakes = named.stream().map(SnowIdNode::snowflake).toList();
    List<CountedIdGenerator> namedCounted = named.stream().map(SnowIdNode::counted).toList();
    Map<String, Entry> byName = new LinkedHashMap<>();
    Snowflake unnamed = snowflakes.getIfUnique();
    if (unnamed != null && !containsSame(namedSnowflakes, unnamed)) {
      List<CountedIdGenerator> own =
          counted.stream().filter(c -> !containsSame(namedCounted, c)).toList();
      byName.put(
          GeneratorNames.DEFAULT,
          new Entry(GeneratorNames.DEFAULT, unnamed, own.size() == 1 ? own.get(0) : null));
    }
    for (SnowIdNode n : named) {
      byName.put(n.name(), new Entry(n.name(), n.snowflake(), n.counted()));
    }
    return new SnowIdGenerators(byName);
  }

  private static boolean containsSame(List<?> list, Object o) {
    return list.stream().anyMatch(x -> x == o);
  }

  List<Entry> all() {
    return new ArrayList<>(byName.values());
  }

  /** The generator of that name, or null. */
  Entry get(String name) {
    return byName.get(name);
  }

  /** Whether there are generators of {@code snowid.generators}, not only the default one. */
  boolean hasNamed() {
    return byName.values().stream().anyMatch(e -> !e.isDefault());
  }

  List<String> names() {
    return List.copyOf(byName.keySet());
  }
}
