package io.snowid.codec;

/**
 * Plain unsigned decimal, not padded. Decoding accepts only the canonical form: digits {@code 0-9},
 * no sign, no leading zeros, at most 2^64&minus;1 ({@code 18446744073709551615}).
 */
final class DecimalCodec implements IdCodec {
  static final String NAME = "decimal";
  private static final String MAX = Long.toUnsignedString(-1L);
  private static final String DIGITS = "0-9 (no sign)";

  @Override
  public String name() {
    return NAME;
  }

  /** The longest encoding: 20 digits for the unsigned maximum (19 for non-negative longs). */
  @Override
  public int width() {
    return MAX.length();
  }

  @Override
  public boolean fixedWidth() {
    return false;
  }

  /** False: not padded, so {@code "10" < "9"} as strings. */
  @Override
  public boolean ordered() {
    return false;
  }

  @Override
  public String encode(long id) {
    return Long.toUnsignedString(id);
  }

  @Override
  public long decode(CharSequence text) {
    if (text == null || text.length() == 0) {
      throw IdFormatException.empty(NAME, text);
    }
    int n = text.length();
    if (n > MAX.length()) {
      throw IdFormatException.length(NAME, text, "1 to " + MAX.length() + " digits", n);
    }
    long v = 0;
    boolean belowMax = n < MAX.length();
    for (int i = 0; i < n; i++) {
      int d = text.charAt(i) - '0';
      if (d < 0 || d > 9) {
        throw IdFormatException.badChar(NAME, text, i, DIGITS);
      }
      if (i == 0 && d == 0 && n > 1) {
        throw IdFormatException.at(NAME, text, 0, "leading zero (canonical decimal has none)");
      }
      if (!belowMax) {
        int m = MAX.charAt(i) - '0';
        if (d > m) {
          throw IdFormatException.overflow(NAME, text, i, MAX);
        }
        belowMax = d < m;
      }
      v = v * 10 + d;
    }
    return v;
  }

  @Override
  public String toString() {
    return NAME;
  }
}
