package io.snowid.codec;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

/**
 * RFC 4648 &sect;5 base64url of the 8 big-endian bytes: 11 characters carrying 66 bits, the last 2
 * of which must be zero. Decoding also accepts the padded 12-character form ending in {@code =}.
 */
final class Base64UrlCodec implements IdCodec {
  static final String NAME = "base64url";
  private static final int WIDTH = 11;
  private static final Alphabet ALPHABET =
      Alphabet.of(
          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
          false,
          "A-Za-z0-9-_ (RFC 4648 base64url)");

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int width() {
    return WIDTH;
  }

  @Override
  public boolean fixedWidth() {
    return true;
  }

  @Override
  public boolean ordered() {
    return false;
  }

  @Override
  public String encode(long id) {
    byte[] out = new byte[WIDTH];
    for (int i = 0; i < WIDTH - 1; i++) {
      out[i] = ALPHABET.symbol((int) (id >>> (58 - 6 * i)) & 63);
    }
    out[WIDTH - 1] = ALPHABET.symbol((int) (id << 2) & 63);
    return new String(out, ISO_8859_1);
  }

  @Override
  public long decode(CharSequence text) {
    if (text == null || text.length() == 0) {
      throw IdFormatException.empty(NAME, text);
    }
    checkLength(text);
    long v = 0;
    for (int i = 0; i < WIDTH - 1; i++) {
      v = v << 6 | digit(text, i);
    }
    int last = digit(text, WIDTH - 1);
    if ((last & 3) != 0) {
      throw IdFormatException.at(
          NAME,
          text,
          WIDTH - 1,
          "last character "
              + IdFormatException.describe(text.charAt(WIDTH - 1))
              + " sets bits beyond the 8 bytes; it must be one of AEIMQUYcgkosw048");
    }
    return v << 4 | last >>> 2;
  }

  private static void checkLength(CharSequence text) {
    int n = text.length();
    if (n == WIDTH + 1 && text.charAt(WIDTH) != '=') {
      throw IdFormatException.at(NAME, text, WIDTH, "a 12th character can only be the padding '='");
    }
    if (n != WIDTH && n != WIDTH + 1) {
      throw IdFormatException.length(NAME, text, "11 characters, or 12 ending in '='", n);
    }
  }

  private static int digit(CharSequence text, int i) {
    int d = ALPHABET.value(text.charAt(i));
    if (d < 0) {
      throw IdFormatException.badChar(NAME, text, i, ALPHABET.description());
    }
    return d;
  }

  @Override
  public String toString() {
    return NAME;
  }
}
