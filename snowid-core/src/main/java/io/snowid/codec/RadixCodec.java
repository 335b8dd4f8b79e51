package io.snowid.codec;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

/**
 * A fixed-width, zero-padded positional codec over one {@link Alphabet}: the unsigned 64-bit value
 * written as {@code width} digits, most significant first. Used for hex, base32, base36 and base62.
 */
final class RadixCodec implements IdCodec {
  private final String name;
  private final Alphabet alphabet;
  private final int width;
  private final boolean ordered;
  private final int radix;
  private final int bits; // log2(radix) when radix is a power of two, else 0
  private final byte[] maxDigits; // the digits of 2^64-1
  private final String maxText;

  RadixCodec(String name, Alphabet alphabet, int width, boolean ordered) {
    this.name = name;
    this.alphabet = alphabet;
    this.width = width;
    this.ordered = ordered;
    this.radix = alphabet.radix();
    this.bits = Integer.bitCount(radix) == 1 ? Integer.numberOfTrailingZeros(radix) : 0;
    this.maxDigits = digitsOfUnsignedMax(radix, width);
    this.maxText = encode(-1L);
  }

  private static byte[] digitsOfUnsignedMax(int radix, int width) {
    byte[] digits = new byte[width];
    long v = -1L;
    for (int i = width - 1; i >= 0; i--) {
      digits[i] = (byte) Long.remainderUnsigned(v, radix);
      v = Long.divideUnsigned(v, radix);
    }
    if (v != 0) {
      throw new IllegalArgumentException(width + " base-" + radix + " digits cannot hold 64 bits");
    }
    return digits;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public int width() {
    return width;
  }

  @Override
  public boolean fixedWidth() {
    return true;
  }

  @Override
  public boolean ordered() {
    return ordered;
  }

  @Override
  public String encode(long id) {
    byte[] out = new byte[width];
    write(id, out);
    return new String(out, ISO_8859_1);
  }

  /** Writes the {@code width} symbols of {@code id} to {@code out[0, width)}. */
  void write(long id, byte[] out) {
    if (bits > 0) {
      long v = id;
      for (int i = width - 1; i >= 0; i--, v >>>= bits) {
        out[i] = alphabet.symbol((int) v & (radix - 1));
      }
      return;
    }
    int i = width;
    long v = id;
    if (v < 0) {
      long q = Long.divideUnsigned(v, radix);
      out[--i] = alphabet.symbol((int) (v - q * radix));
      v = q;
    }
    for (; i > 0; v /= radix) {
      out[--i] = alphabet.symbol((int) (v % radix));
    }
  }

  @Override
  public long decode(CharSequence text) {
    if (text == null || text.length() == 0) {
      throw IdFormatException.empty(name, text);
    }
    return decode(text, text.length(), name);
  }

  /** Decodes {@code text[0, end)}; errors name {@code codec} and the whole of {@code text}. */
  long decode(CharSequence text, int end, String codec) {
    int symbols = alphabet.skips() ? alphabet.countSymbols(text, end) : end;
    if (symbols != width) {
      String what = alphabet.skips() ? " symbols (hyphens aside)" : " characters";
      throw IdFormatException.length(codec, text, width + what, symbols);
    }
    long v = 0;
    boolean belowMax = false;
    for (int i = 0, k = 0; i < end; i++) {
      int d = alphabet.value(text.charAt(i));
      if (d == Alphabet.SKIP) {
        continue;
      }
      if (d < 0) {
        throw IdFormatException.badChar(codec, text, i, alphabet.description());
      }
      if (!belowMax) {
        if (d > maxDigits[k]) {
          throw IdFormatException.overflow(codec, text, i, maxText);
        }
        belowMax = d < maxDigits[k++];
      }
      v = v * radix + d;
    }
    return v;
  }

  @Override
  public String toString() {
    return name;
  }
}
