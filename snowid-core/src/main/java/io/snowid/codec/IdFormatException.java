package io.snowid.codec;

import io.snowid.InvalidIdException;

/**
 * A text form of an ID that a {@link IdCodec} cannot decode: empty, of the wrong length, with a
 * character outside the codec's alphabet, above the unsigned 64-bit maximum, or (for {@code
 * base32check}) with a check symbol that does not match.
 */
public class IdFormatException extends InvalidIdException {
  private static final long serialVersionUID = 1L;

  private final String codec;
  private final int position;

  /**
   * @param codec the name of the codec that rejected the input, e.g. {@code "base62"}
   * @param input the rejected input, as given ({@code "null"} for a null input)
   * @param position the index of the offending character, or -1 when the input as a whole is wrong
   *     (empty, wrong length)
   * @param reason what is wrong and what was expected
   */
  public IdFormatException(String codec, String input, int position, String reason) {
    super(input, codec + ": " + (position < 0 ? "" : "at position " + position + ": ") + reason);
    this.codec = codec;
    this.position = position;
  }

  /** The name of the codec that rejected the input. */
  public String codec() {
    return codec;
  }

  /**
   * The index of the offending character in the input, or -1 for an empty or wrong-length input.
   */
  public int position() {
    return position;
  }

  static IdFormatException empty(String codec, CharSequence text) {
    return new IdFormatException(
        codec, String.valueOf(text), -1, text == null ? "input is null" : "input is empty");
  }

  static IdFormatException length(String codec, CharSequence text, String expected, int got) {
    return new IdFormatException(
        codec, text.toString(), -1, "expected " + expected + ", got " + got);
  }

  static IdFormatException badChar(String codec, CharSequence text, int position, String allowed) {
    return new IdFormatException(
        codec,
        text.toString(),
        position,
        "character " + describe(text.charAt(position)) + " is not one of " + allowed);
  }

  static IdFormatException overflow(String codec, CharSequence text, int position, String max) {
    return new IdFormatException(
        codec,
        text.toString(),
        position,
        "value exceeds the unsigned 64-bit maximum 2^64-1 (" + max + ")");
  }

  static IdFormatException at(String codec, CharSequence text, int position, String reason) {
    return new IdFormatException(codec, text.toString(), position, reason);
  }

  static String describe(char c) {
    String hex = Integer.toHexString(c).toUpperCase(java.util.Locale.ROOT);
    String code = "U+" + "0000".substring(hex.length()) + hex;
    return c >= 0x20 && c < 0x7f ? "'" + c + "' (" + code + ")" : code;
  }
}
