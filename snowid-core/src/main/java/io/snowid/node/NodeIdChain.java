package io.snowid.node;

import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import io.snowid.node.internal.Ipv4Source;
import io.snowid.node.internal.LocalLeasePlan;
import io.snowid.node.internal.PropertySource;
import io.snowid.node.internal.StatefulSetSource;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.StringJoiner;

/**
 * Resolves the node field values of a layout from an ordered list of {@link NodeIdSource}s: each
 * field takes its value from the first source that has one. {@link #standard()} is the order
 * docs/design.md gives (io.snowid.node): explicit → system properties → environment → {@link
 * ServiceLoader} providers → StatefulSet ordinal → IPv4 low bits. The choice is logged (logger
 * {@code io.snowid.node}) with the source of every value and what was tried before it; the IPv4
 * fallback logs a WARN, and refuses inside Kubernetes ({@link UnsafeEnvironmentException}).
 */
public final class NodeIdChain {
  private static final System.Logger LOG = System.getLogger("io.snowid.node");

  private final List<NodeIdSource> sources;

  private NodeIdChain(List<NodeIdSource> sources) {
    this.sources = List.copyOf(sources);
  }

  /** The standard order, reading this JVM's properties, environment and network. */
  public static NodeIdChain standard() {
    return standard(HostEnvironment.system());
  }

  /** The standard order, reading this JVM's system properties and {@code env}. */
  public static NodeIdChain standard(HostEnvironment env) {
    List<NodeIdSource> list = new ArrayList<>();
    list.add(PropertySource.systemProperties());
    list.add(PropertySource.environment(env));
    for (NodeIdSource provided : ServiceLoader.load(NodeIdSource.class)) {
      list.add(provided);
    }
    list.add(new StatefulSetSource(env));
    list.add(new Ipv4Source(env));
    return new NodeIdChain(list);
  }

  /**
   * Only the operator's explicit settings: the system properties ({@code snowid.worker-id}, …) and
   * then the environment ({@code SNOWID_WORKER_ID}, …). Fields set there are not leased.
   */
  public static NodeIdChain settings() {
    return settings(HostEnvironment.system());
  }

  /** {@link #settings()}, with the environment variables of {@code env}. */
  public static NodeIdChain settings(HostEnvironment env) {
    return new NodeIdChain(
        List.of(PropertySource.systemProperties(), PropertySource.environment(env)));
  }

  /** A chain of exactly these sources, in this order. */
  public static NodeIdChain of(List<NodeIdSource> sources) {
    return new NodeIdChain(sources);
  }

  /** The sources, in the order they are tried. */
  public List<NodeIdSource> sources() {
    return sources;
  }

  /**
   * Values for every node field of the layout: {@code explicit} ones first, then the sources.
   *
   * @throws NodeIdUnavailableException if some field has no value from any source
   * @throws InvalidSettingException if an explicit value or a source's value is out of range
   */
  public Map<String, Long> resolve(Layout layout, Map<String, Long> explicit) {
    return resolve(layout, layout.nodeFields(), explicit, true);
  }

  /**
   * Values for {@code fields} only.
   *
   * @throws NodeIdUnavailableException if one of them has no value from any source
   */
  public Map<String, Long> resolve(
      Layout layout, List<Layout.Field> fields, Map<String, Long> explicit) {
    return resolve(layout, fields, explicit, true);
  }

  /** Values for those of {@code fields} that some source has; never throws for a missing one. */
  public Map<String, Long> resolvePartial(Layout layout, List<Layout.Field> fields) {
    return resolve(layout, fields, Map.of(), false);
  }

  private Map<String, Long> resolve(
      Layout layout, List<Layout.Field> fields, Map<String, Long> explicit, boolean required) {
    Map<String, Long> values = new LinkedHashMap<>();
    Map<String, String> origin = new LinkedHashMap<>();
    Map<String, StringJoiner> tried = new LinkedHashMap<>();
    for (Layout.Field f : fields) {
      tried.put(f.name(), new StringJoiner("; "));
      Long v = explicit.get(f.name());
      if (v != null) {
        if (v < 0 || v > f.max()) {
          throw new InvalidSettingException(f.name(), v, "0.." + f.max());
        }
        values.put(f.name(), v);
        origin.put(f.name(), "explicit");
      } else {
        tried.get(f.name()).add("not explicit");
      }
    }
    for (NodeIdSource source : sources) {
      List<Layout.Field> wanted = new ArrayList<>();
      for (Layout.Field f : fields) {
        if (!values.containsKey(f.name())) {
          wanted.add(f);
        }
      }
      if (wanted.isEmpty()) {
        break;
      }
      Map<String, Long> found = source.resolve(layout, wanted);
      for (Layout.Field f : wanted) {
        Long v = found.get(f.name());
        if (v == null) {
          tried.get(f.name()).add(source.lookedAt(f) + " not set");
        } else {
          values.put(f.name(), v);
          origin.put(f.name(), source.lookedAt(f));
        }
      }
    }
    List<String> missing = new ArrayList<>();
    List<Layout.Field> unset = new ArrayList<>();
    for (Layout.Field f : fields) {
      if (required && !values.containsKey(f.name())) {
        missing.add(f.name() + " (tried: " + tried.get(f.name()) + ")");
        unset.add(f);
      }
    }
    if (!missing.isEmpty()) {
      throw new NodeIdUnavailableException(
          "no value for node field(s) "
              + String.join(", ", missing)
              + "; set "
              + LocalLeasePlan.settingNames(unset)
              + ", or lease node ids: snowid.node / SNOWID_NODE = file:DIR (the processes of one"
              + " host) or redis://… (several hosts)");
    }
    for (Map.Entry<String, Long> e : values.entrySet()) {
      LOG.log(
          Level.INFO,
          "node field {0} = {1} from {2} (before it: {3})",
          e.getKey(),
          e.getValue(),
          origin.get(e.getKey()),
          tried.get(e.getKey()).length() == 0 ? "nothing" : tried.get(e.getKey()).toString());
    }
    return values;
  }
}
