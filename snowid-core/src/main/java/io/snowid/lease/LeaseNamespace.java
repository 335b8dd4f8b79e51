package io.snowid.lease;

import io.snowid.Layout;
import io.snowid.node.Spread;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a lease lives in its coordinator, and what its node ids mean: the namespace key that a
 * generator with the same node source, layout and fixed values uses, and how an id of that
 * namespace spreads over the leased node fields. {@link LeaseCoordinators#namespace} computes it
 * exactly as {@link LeaseCoordinators#lease} does, so that an operator's listing shows the ids the
 * service really holds.
 *
 * @param key the namespace key the coordinator stores the ids under: the {@code namespace=} option,
 *     a hash of the layout's spec, the leased fields' names, and the fixed fields with their values
 *     (e.g. {@code default.adc4e56c.worker.datacenter2})
 * @param layout the layout the ids belong to
 * @param fixed the node fields that are not leased, with their values (explicit, from {@code
 *     snowid.<field>-id} / {@code SNOWID_<FIELD>_ID}, or, for a coordinator of one host, from the
 *     node-id chain)
 * @param leased the node fields that the ids of the namespace spread over, high to low
 */
public record LeaseNamespace(
    String key, Layout layout, Map<String, Long> fixed, List<Layout.Field> leased) {
  public LeaseNamespace {
    fixed = Map.copyOf(fixed);
    leased = List.copyOf(leased);
  }

  static LeaseNamespace of(
      String namespace, Layout layout, Map<String, Long> fixed, List<Layout.Field> leased) {
    return new LeaseNamespace(
        LeaseHolder.namespaceKey(namespace, layout, fixed, leased), layout, fixed, leased);
  }

  /** How many ids the namespace has: {@code [0, size)}. */
  public long size() {
    return 1L << Spread.bits(leased);
  }

  /** Every node field's value under node id {@code nodeId}, in the layout's order. */
  public Map<String, Long> values(long nodeId) {
    Map<String, Long> unordered = new LinkedHashMap<>(fixed);
    unordered.putAll(Spread.over(leased, nodeId));
    Map<String, Long> values = new LinkedHashMap<>();
    for (Layout.Field f : layout.nodeFields()) {
      Long v = unordered.get(f.name());
      if (v != null) {
        values.put(f.name(), v);
      }
    }
    return values;
  }
}
