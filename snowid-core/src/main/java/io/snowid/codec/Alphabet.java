package io.snowid.codec;

import java.util.Arrays;

/**
 * The symbols of one radix and a 128-entry table from ASCII character to digit value: {@link
 * #INVALID} for characters outside the alphabet, {@link #SKIP} for characters decoding ignores.
 */
final class Alphabet {
  static final byte INVALID = -1;
  static final byte SKIP = -2;

  private final byte[] symbols;
  private final byte[] values = new byte[128];
  private final boolean skips;
  private final String description;

  /**
   * @param symbols the digits in value order
   * @param ignoreCase whether decoding accepts both cases of each letter
   * @param aliases pairs of (extra character, symbol it reads as), e.g. {@code "I1O0"}
   * @param skip characters decoding ignores
   * @param description the allowed characters, for error messages
   */
  private Alphabet(
      String symbols, boolean ignoreCase, String aliases, String skip, String description) {
    this.symbols = symbols.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    this.description = description;
    this.skips = !skip.isEmpty();
    Arrays.fill(values, INVALID);
    for (int v = 0; v < symbols.length(); v++) {
      put(symbols.charAt(v), v, ignoreCase);
    }
    for (int i = 0; i < aliases.length(); i += 2) {
      put(aliases.charAt(i), symbols.indexOf(aliases.charAt(i + 1)), ignoreCase);
    }
    for (int i = 0; i < skip.length(); i++) {
      values[skip.charAt(i)] = SKIP;
    }
  }

  static Alphabet of(String symbols, boolean ignoreCase, String description) {
    return new Alphabet(symbols, ignoreCase, "", "", description);
  }

  static Alphabet crockford(String symbols, String description) {
    return new Alphabet(symbols, true, "I1L1O0", "-", description);
  }

  private void put(char c, int value, boolean ignoreCase) {
    values[c] = (byte) value;
    if (ignoreCase) {
      values[Character.toLowerCase(c)] = (byte) value;
      values[Character.toUpperCase(c)] = (byte) value;
    }
  }

  int radix() {
    return symbols.length;
  }

  byte symbol(int value) {
    return symbols[value];
  }

  /** The digit value of {@code c}, or {@link #INVALID} or {@link #SKIP}. */
  int value(char c) {
    return c < 128 ? values[c] : INVALID;
  }

  /** Whether some characters are skipped (so the symbol count may differ from the length). */
  boolean skips() {
    return skips;
  }

  /** The number of characters in {@code text[0, end)} that are not skipped. */
  int countSymbols(CharSequence text, int end) {
    int n = 0;
    for (int i = 0; i < end; i++) {
      if (value(text.charAt(i)) != SKIP) {
        n++;
      }
    }
    return n;
  }

  String description() {
    return description;
  }
}
