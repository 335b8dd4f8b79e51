package io.snowid.spring.boot;

import io.snowid.InvalidSettingException;
import io.snowid.lease.LeaseCoordinators;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code snowid.node} with the {@code snowid.lease.*} properties in its query, and the
 * application's connection it names, if it names one.
 */
final class NodeSpec {
  /** Lease option keys of the URI query, and their properties. */
  private static final Map<String, String> PROPERTIES =
      Map.of(
          "namespace", "lease.namespace",
          "ttl", "lease.ttl",
          "skew", "lease.skew",
          "startWait", "lease.start-wait",
          "renew", "lease.renew",
          "instance", "lease.instance",
          "fields", "lease.fields",
          "maxTtl", "lease.max-ttl",
          "maxSkew", "lease.max-skew",
          "connectWait", "lease.connect-wait");

  private NodeSpec() {}

  /**
   * The node source of the properties: {@code snowid.node} (default: this host's lease directory)
   * with the lease options that are set appended to its query.
   *
   * @throws InvalidSettingException (setting {@code snowid.lease.…}) for a lease option given with
   *     a node source that takes none, or given twice (in the property and the URI)
   */
  static String of(GeneratorProperties p) {
    return of(p, "snowid.");
  }

  /** As {@link #of(GeneratorProperties)}, for the properties under {@code prefix}. */
  static String of(GeneratorProperties p, String prefix) {
    String node =
        p.getNode() == null || p.getNode().isBlank()
            ? LeaseCoordinators.DEFAULT_FILE_URI
            : p.getNode().trim();
    Map<String, String> options = leaseOptions(p.getLease());
    if (options.isEmpty()) {
      return node;
    }
    String first = options.keySet().iterator().next();
    if (!isLease(node)) {
      throw new InvalidSettingException(
          prefix + PROPERTIES.get(first),
          options.get(first),
          "unset, since " + prefix + "node = " + node + " is no lease coordinator");
    }
    Set<String> inUri = queryKeys(node);
    List<String> pairs = new ArrayList<>();
    for (Map.Entry<String, String> e : options.entrySet()) {
      if (inUri.contains(e.getKey())) {
        throw new InvalidSettingException(
            prefix + PROPERTIES.get(e.getKey()),
            e.getValue(),
            "unset, since " + prefix + "node sets " + e.getKey() + " in its query");
      }
      pairs.add(e.getKey() + "=" + e.getValue());
    }
    return node + (node.indexOf('?') < 0 ? "?" : "&") + String.join("&", pairs);
  }

  /** Whether a node source is a lease (a coordinator URI or a connection), not auto or static. */
  static boolean isLease(String spec) {
    String lower = spec.toLowerCase(Locale.ROOT);
    return !lower.equals("auto") && !lower.startsWith("static:");
  }

  /**
   * The property a lease option came from (when the properties set it), else {@code node}: for the
   * message of a rejected value.
   */
  static String property(String setting, GeneratorProperties p) {
    String property = PROPERTIES.get(setting);
    return property != null && leaseOptions(p.getLease()).containsKey(setting) ? property : "node";
  }

  /**
   * The application's connection a node source names ({@code datasource}, {@code redis-connection},
   * …), or null for a URI, {@code auto} or {@code static:}.
   *
   * @throws InvalidSettingException (setting {@code snowid.node}) for a word no connection has
   */
  static LeaseConnection connection(String spec, List<LeaseConnection> connections) {
    return connection(spec, connections, "snowid.node");
  }

  /** As {@link #connection(String, List)}, for the node source set in {@code property}. */
  static LeaseConnection connection(
      String spec, List<LeaseConnection> connections, String property) {
    int q = spec.indexOf('?');
    String base = q < 0 ? spec : spec.substring(0, q);
    if (base.indexOf(':') >= 0 || base.equalsIgnoreCase("auto")) {
      return null;
    }
    Set<String> names = new LinkedHashSet<>();
    for (LeaseConnection c : connections) {
      if (c.name().equalsIgnoreCase(base)) {
        return c;
      }
      names.add(c.name());
    }
    throw new InvalidSettingException(
        property,
        base,
        "auto, static:…, a lease coordinator URI (file:DIR, redis://…, jdbc:…), or a connection of"
            + " this application: "
            + (names.isEmpty() ? "none here" : String.join(", ", names))
            + " (datasource needs snowid-jdbc and one DataSource bean; redis-connection needs"
            + " snowid-redis and Spring Data Redis with Lettuce)");
  }

  /** The coordinator's own options of a base URI ({@code LeaseOptions.base()}): its query. */
  static String query(String base) {
    int q = base.indexOf('?');
    return q < 0 ? "" : base.substring(q + 1);
  }

  private static Map<String, String> leaseOptions(SnowIdProperties.Lease l) {
    Map<String, String> o = new LinkedHashMap<>();
    put(o, "namespace", l.getNamespace());
    put(o, "ttl", millis(l.getTtl()));
    put(o, "skew", millis(l.getSkew()));
    put(o, "startWait", millis(l.getStartWait()));
    put(o, "renew", millis(l.getRenew()));
    put(o, "instance", l.getInstance());
    put(o, "maxTtl", millis(l.getMaxTtl()));
    put(o, "maxSkew", millis(l.getMaxSkew()));
    put(o, "connectWait", millis(l.getConnectWait()));
    if (l.getFields() != null && !l.getFields().isEmpty()) {
      o.put("fields", String.join(",", l.getFields()));
    }
    return o;
  }

  private static void put(Map<String, String> o, String key, String value) {
    if (value != null) {
      o.put(key, value);
    }
  }

  private static String millis(Duration d) {
    return d == null ? null : d.toMillis() + "ms";
  }

  private static Set<String> queryKeys(String uri) {
    Set<String> keys = new LinkedHashSet<>();
    int q = uri.indexOf('?');
    if (q >= 0) {
      for (String pair : uri.substring(q + 1).split("&", -1)) {
        int eq = pair.indexOf('=');
        keys.add(eq < 0 ? pair : pair.substring(0, eq));
      }
    }
    return keys;
  }
}
