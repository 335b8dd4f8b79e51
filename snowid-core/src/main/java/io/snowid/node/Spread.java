package io.snowid.node;

import io.snowid.Layout;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Spreads one number over several node fields, lowest bits into the last field. */
final class Spread {
  private Spread() {}

  static int bits(List<Layout.Field> fields) {
    int bits = 0;
    for (Layout.Field f : fields) {
      bits += f.bits();
    }
    return bits;
  }

  static Map<String, Long> over(List<Layout.Field> fields, long number) {
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
