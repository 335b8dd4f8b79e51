package io.snowid.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Just enough JSON to read JMH's {@code -rf json} output: objects become {@link Map}, arrays {@link
 * List}, numbers {@link Double}, and JMH's {@code "NaN"} strings stay strings ({@link #number}
 * reads them back).
 */
final class Json {
  private final String s;
  private int i;

  private Json(String s) {
    this.s = s;
  }

  static Object parse(String text) {
    Json p = new Json(text);
    Object v = p.value();
    p.ws();
    if (p.i != p.s.length()) {
      throw p.error("trailing characters");
    }
    return v;
  }

  /** A number that may be written as a string ("NaN", "Infinity") or be missing. */
  static double number(Object v) {
    if (v instanceof Double d) {
      return d;
    }
    if (v instanceof String str) {
      try {
        return Double.parseDouble(str);
      } catch (NumberFormatException e) {
        return Double.NaN;
      }
    }
    return Double.NaN;
  }

  private Object value() {
    ws();
    if (i >= s.length()) {
      throw error("unexpected end");
    }
    return switch (s.charAt(i)) {
      case '{' -> object();
      case '[' -> array();
      case '"' -> string();
      case 't' -> literal("true", true);
      case 'f' -> literal("false", false);
      case 'n' -> literal("null", null);
      default -> num();
    };
  }

  private Map<String, Object> object() {
    Map<String, Object> m = new LinkedHashMap<>();
    i++;
    ws();
    if (peek() == '}') {
      i++;
      return m;
    }
    for (; ; ) {
      ws();
      String k = string();
      ws();
      expect(':');
      m.put(k, value());
      ws();
      char c = s.charAt(i++);
      if (c == '}') {
        return m;
      }
      if (c != ',') {
        throw error("expected , or }");
      }
    }
  }

  private List<Object> array() {
    List<Object> l = new ArrayList<>();
    i++;
    ws();
    if (peek() == ']') {
      i++;
      return l;
    }
    for (; ; ) {
      l.add(value());
      ws();
      char c = s.charAt(i++);
      if (c == ']') {
        return l;
      }
      if (c != ',') {
        throw error("expected , or ]");
      }
    }
  }

  private String string() {
    expect('"');
    StringBuilder sb = new StringBuilder();
    for (; ; ) {
      char c = s.charAt(i++);
      if (c == '"') {
        return sb.toString();
      }
      if (c == '\\') {
        char e = s.charAt(i++);
        switch (e) {
          case 'n' -> sb.append('\n');
          case 't' -> sb.append('\t');
          case 'r' -> sb.append('\r');
          case 'b' -> sb.append('\b');
          case 'f' -> sb.append('\f');
          case 'u' -> {
            sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
            i += 4;
          }
          default -> sb.append(e);
        }
      } else {
        sb.append(c);
      }
    }
  }

  private Double num() {
    int start = i;
    while (i < s.length() && "+-0123456789.eEaNIinfty".indexOf(s.charAt(i)) >= 0) {
      i++;
    }
    if (start == i) {
      throw error("unexpected character");
    }
    return Double.parseDouble(s.substring(start, i));
  }

  private Object literal(String word, Object v) {
    if (!s.startsWith(word, i)) {
      throw error("expected " + word);
    }
    i += word.length();
    return v;
  }

  private void expect(char c) {
    if (peek() != c) {
      throw error("expected " + c);
    }
    i++;
  }

  private char peek() {
    return i < s.length() ? s.charAt(i) : '\0';
  }

  private void ws() {
    while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
      i++;
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("JSON: " + what + " at offset " + i);
  }
}
