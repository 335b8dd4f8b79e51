package io.snowid.server;

import java.util.Map;

/** A small JSON writer: objects of strings, numbers, booleans, nulls and nested objects. */
final class Json {
  private final StringBuilder sb = new StringBuilder(128);
  private boolean first = true;

  private Json() {
    sb.append('{');
  }

  static Json object() {
    return new Json();
  }

  private StringBuilder key(String name) {
    if (!first) {
      sb.append(',');
    }
    first = false;
    quote(sb, name);
    return sb.append(':');
  }

  Json put(String name, String value) {
    StringBuilder b = key(name);
    if (value == null) {
      b.append("null");
    } else {
      quote(b, value);
    }
    return this;
  }

  Json put(String name, long value) {
    key(name).append(value);
    return this;
  }

  Json put(String name, boolean value) {
    key(name).append(value);
    return this;
  }

  /** A nested object of numbers, in the map's order. */
  Json put(String name, Map<String, Long> values) {
    StringBuilder b = key(name).append('{');
    boolean firstValue = true;
    for (Map.Entry<String, Long> e : values.entrySet()) {
      if (!firstValue) {
        b.append(',');
      }
      firstValue = false;
      quote(b, e.getKey());
      b.append(':').append(e.getValue());
    }
    b.append('}');
    return this;
  }

  @Override
  public String toString() {
    return sb + "}";
  }

  /** One {@code {"error": message}} object. */
  static String error(String message) {
    return object().put("error", message).toString();
  }

  static void quote(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20 || c == 0x2028 || c == 0x2029 || Character.isSurrogate(c)) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    b.append('"');
  }
}
