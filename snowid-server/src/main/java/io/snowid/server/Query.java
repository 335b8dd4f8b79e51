package io.snowid.server;

import io.snowid.InvalidSettingException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The query parameters of a request, checked against the names an endpoint accepts: an unknown or
 * repeated parameter is a 400, not silently ignored.
 */
final class Query {
  private static final Query EMPTY = new Query(Map.of());
  private static final int MAX_VALUE_LENGTH = 1024;

  private final Map<String, String> values;

  private Query(Map<String, String> values) {
    this.values = values;
  }

  /**
   * Parses a raw query string (null for none).
   *
   * @throws HttpError 400 for a name outside {@code allowed}, a repeated name or bad encoding
   */
  static Query parse(String raw, String... allowed) {
    if (raw == null || raw.isEmpty()) {
      return EMPTY;
    }
    Map<String, String> values = new LinkedHashMap<>();
    for (String pair : raw.split("&", -1)) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String name = decode(eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
      if (!Arrays.asList(allowed).contains(name)) {
        throw HttpError.badRequest(
            "unknown query parameter '"
                + shorten(name)
                + "'"
                + InvalidSettingException.nearMiss(name, Arrays.asList(allowed))
                    .map(n -> "; did you mean " + n + "?")
                    .orElse(";")
                + " allowed: "
                + (allowed.length == 0 ? "none" : String.join(", ", allowed)));
      }
      if (values.put(name, value) != null) {
        throw HttpError.badRequest("query parameter '" + name + "' is given more than once");
      }
      if (value.length() > MAX_VALUE_LENGTH) {
        throw HttpError.badRequest(
            "query parameter '" + name + "' is longer than " + MAX_VALUE_LENGTH + " characters");
      }
    }
    return new Query(values);
  }

  private static String decode(String s) {
    try {
      return URLDecoder.decode(s, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw HttpError.badRequest("malformed percent-encoding in the query");
    }
  }

  /** Cuts user input quoted in an error message to a readable length. */
  static String shorten(String s) {
    return s.length() <= 40 ? s : s.substring(0, 40) + "…";
  }

  /** The value, or null when the parameter is absent. */
  String get(String name) {
    return values.get(name);
  }

  /**
   * The value of parameter {@code name} read by {@code read}, or null when it is absent.
   *
   * @throws HttpError 400 naming the query parameter, what it may be and {@code example}, when
   *     {@code read} refuses the value
   */
  <T> T read(String name, Function<String, T> read, String example) {
    String value = values.get(name);
    if (value == null) {
      return null;
    }
    try {
      return read.apply(value);
    } catch (InvalidSettingException e) {
      throw HttpError.badRequest("query parameter " + e.getMessage() + " (e.g. " + example + ")");
    }
  }
}
