package io.snowid.codec;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

/**
 * Crockford base32 with its check symbol: the 13 {@code base32} symbols followed by the value mod
 * 37 written in {@code 0-9A-Z*~$=U}. Since 37 is prime and coprime to 32 and 31, a single wrong
 * symbol or a swap of two adjacent symbols always changes the check.
 */
final class Base32CheckCodec implements IdCodec {
  static final String NAME = "base32check";
  private static final int MODULUS = 37;
  private static final Alphabet CHECK =
      Alphabet.crockford(
          "0123456789ABCDEFGHJKMNPQRSTVWXYZ*~$=U", "the check symbols 0-9A-Z*~$=U (Crockford)");

  private final RadixCodec base32;

  Base32CheckCodec(RadixCodec base32) {
    this.base32 = base32;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int width() {
    return base32.width() + 1;
  }

  @Override
  public boolean fixedWidth() {
    return true;
  }

  @Override
  public boolean ordered() {
    return base32.ordered();
  }

  @Override
  public String encode(long id) {
    byte[] out = new byte[width()];
    base32.write(id, out);
    out[out.length - 1] = CHECK.symbol((int) Long.remainderUnsigned(id, MODULUS));
    return new String(out, ISO_8859_1);
  }

  @Override
  public long decode(CharSequence text) {
    if (text == null || text.length() == 0) {
      throw IdFormatException.empty(NAME, text);
    }
    int symbols = CHECK.countSymbols(text, text.length());
    if (symbols != width()) {
      throw IdFormatException.length(NAME, text, width() + " symbols (hyphens aside)", symbols);
    }
    int last = text.length() - 1;
    while (CHECK.value(text.charAt(last)) == Alphabet.SKIP) {
      last--;
    }
    long v = base32.decode(text, last, NAME);
    int check = CHECK.value(text.charAt(last));
    if (check < 0) {
      throw IdFormatException.badChar(NAME, text, last, CHECK.description());
    }
    if (check != Long.remainderUnsigned(v, MODULUS)) {
      throw IdFormatException.at(
          NAME,
          text,
          last,
          "check symbol does not match the 13 symbols before it"
              + " (a symbol is mistyped or two are swapped)");
    }
    return v;
  }

  @Override
  public String toString() {
    return NAME;
  }
}
