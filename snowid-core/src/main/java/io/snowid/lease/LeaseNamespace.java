package io.snowid.lease;

import io.snowid.Layout;
import java.util.List;
import java.util.Map;

/**
 * Where a lease lives in its coordinator, and what its node ids mean: the namespace key that a
 * generator with the same node source, layout and fixed values uses, and how an id of that
 * namespace spreads over the leased node fields. {@link LeaseCoordinators#namespace} computes it
 * exactly as {@link LeaseCoordinators#lease} does, so that an operator's listing shows the ids the
 * service really holds.
 *
 * @param key the namespace key the coordinator stores the ids under: the {@code namespace=} option
 *     and the layout's {@linkplain Layout#idSpace() ID space} (e.g. {@code
 *     default.t41-n10-s12-e1288834974657-u1}); its ids are the packed node values of that space
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
    return new LeaseNamespace(LeaseHolder.namespaceKey(namespace, layout), layout, fixed, leased);
  }

  /** How many ids the namespace has: {@code [0, size)}, every packed node value of the layout. */
  public long size() {
    return layout.nodeCount();
  }

  /** Every node field's value under node id {@code nodeId}, in the layout's order. */
  public Map<String, Long> values(long nodeId) {
    return layout.unpackNode(nodeId);
  }

  /** Whether a holder with these fixed values may hold {@code nodeId}. */
  public boolean allows(long nodeId) {
    long mask = layout.nodeMask(fixed.keySet());
    return (nodeId & mask) == (layout.packNode(fixed) & mask);
  }
}
