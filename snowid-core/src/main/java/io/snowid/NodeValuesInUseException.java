package io.snowid;

import java.util.Map;

/**
 * Two live generators of one JVM would hold the same node values of one ID space and namespace: the
 * second is refused at {@code build()} (or, when a lease hands it such values later, fenced) with a
 * sentence naming both node sources.
 */
public final class NodeValuesInUseException extends InvalidSettingException {
  private static final long serialVersionUID = 1L;

  NodeValuesInUseException(
      Map<String, Long> values, String idSpace, String namespace, String holder, String source) {
    super(
        "node",
        values,
        "node values no other live generator of this JVM holds",
        "node values "
            + values
            + " of ID space "
            + idSpace
            + (namespace == null ? "" : " in namespace " + namespace)
            + " are held by another live generator in this JVM ("
            + holder
            + "); this one ("
            + source
            + ") would issue the same IDs. Close the other generator first, or give both one node"
            + " source (one lease directory per host, one registry per fleet)");
  }
}
