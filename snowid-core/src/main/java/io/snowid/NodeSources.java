package io.snowid;

import io.snowid.lease.LeaseCoordinators;
import io.snowid.node.NodeIdChain;
import io.snowid.node.NodeLease;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Turns a node source spec ({@code auto}, {@code static:…}, a coordinator URI) into values. */
final class NodeSources {
  static final String FORMS =
      "auto, static:worker=N[,datacenter=N…], file:DIR, redis://HOST[:PORT][/DB] (snowid-redis),"
          + " jdbc:postgresql|mariadb|mysql|h2:… (snowid-jdbc)";

  /**
   * Where a generator's node values come from: static values, or a lease.
   *
   * @param values the static values (empty under a lease)
   * @param source where they came from, for the status
   * @param lease the lease, or null
   * @param ownsLease whether the generator opened the lease and so releases it on close
   */
  record Resolved(Map<String, Long> values, String source, NodeLease lease, boolean ownsLease) {
    /** Explicit values, or a lease that the caller opened and will close. */
    static Resolved given(Map<String, Long> values, NodeLease lease) {
      return new Resolved(values, "explicit", lease, false);
    }
  }

  private NodeSources() {}

  /**
   * Where the node values of a generator built with {@code s} come from: the caller's lease, the
   * node source (a lease opened here belongs to that generator), or the explicit values, which must
   * then cover every node field.
   *
   * @throws InvalidSettingException if a node field has no value
   */
  static Resolved resolve(SnowflakeSettings s) {
    Resolved r =
        s.lease() != null || s.nodeSpec() == null
            ? Resolved.given(s.node(), s.lease())
            : fromSpec(s.nodeSpec(), s.layout(), s.node(), s.time());
    if (r.lease() == null) {
      List<Layout.Field> missing =
          s.layout().nodeFields().stream().filter(f -> !r.values().containsKey(f.name())).toList();
      if (!missing.isEmpty() && s.nodeSpec() != null) {
        throw new InvalidSettingException(
            "node",
            s.nodeSpec(),
            "static: with a value for every node field of the layout, e.g. static:"
                + String.join(
                    ",",
                    s.layout().nodeFields().stream().map(f -> f.name() + "=0.." + f.max()).toList())
                + " ("
                + names(missing)
                + (missing.size() == 1 ? " has" : " have")
                + " none)");
      }
      if (!missing.isEmpty()) {
        throw unset(missing);
      }
    }
    return r;
  }

  /**
   * Node fields without a value, named with the builder calls that give them one. The builder has
   * no default node source: see docs/design.md, "A builder without a node source".
   */
  private static InvalidSettingException unset(List<Layout.Field> missing) {
    String calls =
        String.join(
            " and ",
            missing.stream().map(f -> "node(\"" + f.name() + "\", 0.." + f.max() + ")").toList());
    String allowed =
        "nodeSource(\""
            + LeaseCoordinators.DEFAULT_FILE_URI
            + "\") (this host's lease directory, SnowId's default), nodeSource(\"auto\"), a"
            + " coordinator such as nodeSource(\"redis://host\"), or "
            + calls;
    return new InvalidSettingException(
        missing.get(0).name(),
        "unset",
        allowed,
        names(missing) + (missing.size() == 1 ? " has" : " have") + " no value; call " + allowed);
  }

  /** Resolves {@code spec}; a lease coordinator URI opens a lease that the caller then owns. */
  private static Resolved fromSpec(
      String spec, Layout layout, Map<String, Long> explicit, TimeSource time) {
    String lower = spec.toLowerCase(Locale.ROOT);
    if (lower.equals("auto")) {
      return new Resolved(
          NodeIdChain.standard().resolve(layout, explicit),
          "auto (" + describe(explicit) + ")",
          null,
          false);
    }
    if (lower.startsWith("static:")) {
      Map<String, Long> values = new LinkedHashMap<>(explicit);
      Set<String> given = new HashSet<>();
      for (String part : spec.substring("static:".length()).split(",", -1)) {
        String[] kv = part.split("=", -1);
        if (kv.length != 2) {
          throw new InvalidSettingException("node", spec, FORMS);
        }
        String field = kv[0].trim();
        Layout.Field f = layout.field(field).filter(Layout.Field::isNode).orElse(null);
        long value;
        try {
          value = Long.parseLong(kv[1].trim());
        } catch (NumberFormatException e) {
          value = -1;
        }
        if (f == null || value < 0 || value > f.max()) {
          throw new InvalidSettingException(
              "node " + field,
              kv[1].trim(),
              f == null ? "a node field of " + layout : "0.." + f.max());
        }
        if (!given.add(field)) {
          // static:worker=1,worker=2 is a typo, not a choice: never pick one of them silently
          throw new InvalidSettingException(
              "node " + field, kv[1].trim(), "one value per field (" + field + " is given twice)");
        }
        values.put(field, value);
      }
      return new Resolved(values, "static", null, false);
    }
    NodeLease lease = LeaseCoordinators.lease(spec, layout, explicit, time);
    return new Resolved(Map.of(), spec, lease, true);
  }

  private static String names(List<Layout.Field> fields) {
    return String.join(" and ", fields.stream().map(Layout.Field::name).toList());
  }

  private static String describe(Map<String, Long> explicit) {
    return explicit.isEmpty() ? "chain" : "explicit " + explicit + " then chain";
  }
}
