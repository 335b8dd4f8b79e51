package io.snowid;

import io.snowid.lease.LeaseCoordinators;
import io.snowid.node.NodeIdChain;
import io.snowid.node.NodeLease;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Turns a node source spec ({@code auto}, {@code static:…}, a coordinator URI) into values. */
final class NodeSources {
  static final String FORMS =
      "auto, static:worker=N[,datacenter=N…], file:DIR, redis://HOST[:PORT][/DB], jdbc:…";

  record Resolved(Map<String, Long> values, String source, NodeLease lease) {}

  private NodeSources() {}

  static Resolved resolve(String spec, Layout layout, Map<String, Long> explicit, TimeSource time) {
    String lower = spec.toLowerCase(Locale.ROOT);
    if (lower.equals("auto")) {
      return new Resolved(
          NodeIdChain.standard().resolve(layout, explicit),
          "auto (" + describe(explicit) + ")",
          null);
    }
    if (lower.startsWith("static:")) {
      Map<String, Long> values = new LinkedHashMap<>(explicit);
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
        values.put(field, value);
      }
      return new Resolved(values, "static", null);
    }
    NodeLease lease = LeaseCoordinators.lease(spec, layout, explicit, time);
    return new Resolved(Map.of(), spec, lease);
  }

  private static String describe(Map<String, Long> explicit) {
    return explicit.isEmpty() ? "chain" : "explicit " + explicit + " then chain";
  }
}
