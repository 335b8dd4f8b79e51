package io.snowid.node.internal;

import io.snowid.Layout;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Spreads one number over several node fields, lowest bits into the last field: how a leased id, a
 * StatefulSet ordinal or address bits become node field values.
 */
public final class Spread {
  private Spread() {}

  /** The bits the fields hold together: numbers below {@code 1 << bits} fit. */
  public static int bits(List<Layout.Field> fields) {
    int bits = 0;
    for (Layout.Field f : fields) {
      bits += f.bits();
    }
    return bits;
  }

  /** The fields' names for messages: {@code datacenter, worker}. */
  public static String names(List<Layout.Field> fields) {
    StringBuilder sb = new StringBuilder();
    for (Layout.Field f : fields) {
      sb.append(sb.length() == 0 ? "" : ", ").append(f.name());
    }
    return sb.toString();
  }

  /** The fields' values for {@code number}, in the fields' order. */
  public static Map<String, Long> over(List<Layout.Field> fields, long number) {
    Map<String, Long> out = new LinkedHashMap<>();
    long rest = number;
    for (int i = fields.size() - 1; i >= 0; i--) {
      Layout.Field f = fields.get(i);
      out.put(f.name(), rest & f.max());
      rest >>>= f.bits();
    }
    Map<String, Long> ordered = new LinkedHashMap<>();
    for (Layout.Field f : fields) {
      ordered.put(f.name(), out.get(f.name()));
    }
    return ordered;
  }
}
