package io.snowid.codec;

import io.snowid.InvalidIdException;
import io.snowid.InvalidSettingException;
import java.util.List;
import java.util.Locale;

/**
 * A text form of a 64-bit ID. Thread-safe and stateless; {@link #encode} allocates only its result,
 * {@link #decode} allocates nothing unless it throws.
 *
 * <h2>Negative longs are unsigned</h2>
 *
 * Every codec treats the {@code long} as a 64-bit <em>unsigned</em> value: {@code -1L} encodes as
 * the unsigned maximum 2^64&minus;1 (hex {@code ffffffffffffffff}, decimal {@code
 * 18446744073709551615}), and decoding returns the same 64 bits, so {@code decode(encode(x)) == x}
 * for every {@code long x}. Inputs above 2^64&minus;1 are rejected, never wrapped.
 *
 * <h2>Forms</h2>
 *
 * <table>
 *   <caption>Built-in codecs</caption>
 *   <tr><th>name<th>width<th>alphabet<th>ordered
 *   <tr><td>{@code decimal}<td>1..20<td>{@code 0-9}, no sign, no leading zeros<td>no
 *   <tr><td>{@code hex}<td>16<td>{@code 0-9a-f}, decoded case-insensitively<td>yes
 *   <tr><td>{@code base32}<td>13<td>Crockford {@code 0-9A-Z} without {@code ILOU}<td>yes
 *   <tr><td>{@code base32check}<td>14<td>{@code base32} plus a mod-37 check symbol<td>yes
 *   <tr><td>{@code base36}<td>13<td>{@code 0-9a-z}, decoded case-insensitively<td>yes
 *   <tr><td>{@code base62}<td>11<td>{@code 0-9A-Za-z}<td>yes
 *   <tr><td>{@code base62-legacy}<td>11<td>{@code 0-9a-zA-Z}<td>no
 *   <tr><td>{@code base64url}<td>11<td>RFC 4648 &sect;5 of the 8 big-endian bytes<td>no
 * </table>
 */
public interface IdCodec {

  /** Plain unsigned decimal, not padded: {@code 0}, {@code 1541815603606036480}. */
  IdCodec DECIMAL = Codecs.DECIMAL;

  /** 16 lower-case hex digits, zero-padded; decoding ignores case. */
  IdCodec HEX = Codecs.HEX;

  /**
   * Crockford's base 32, 13 upper-case symbols, zero-padded. The first symbol holds the top 4 bits,
   * so it is {@code 0..F}. Decoding ignores case, reads {@code I}/{@code L} as 1 and {@code O} as
   * 0, and ignores hyphens.
   */
  IdCodec BASE32 = Codecs.BASE32;

  /**
   * {@link #BASE32} followed by Crockford's check symbol (the value mod 37, from {@code
   * 0-9A-Z*~$=U}): 14 symbols. Detects any single wrong symbol and any swap of two adjacent
   * symbols.
   */
  IdCodec BASE32_CHECK = Codecs.BASE32_CHECK;

  /** 13 lower-case base-36 digits {@code 0-9a-z}, zero-padded; decoding ignores case. */
  IdCodec BASE36 = Codecs.BASE36;

  /** 11 base-62 digits in ASCII order {@code 0-9A-Za-z}, zero-padded; case-sensitive. */
  IdCodec BASE62 = Codecs.BASE62;

  /**
   * 11 base-62 digits in the order {@code 0-9a-zA-Z} used by older systems (2^63&minus;1 is {@code
   * aZl8N0y58M7}); for reading their IDs. Not ordered.
   */
  IdCodec BASE62_LEGACY = Codecs.BASE62_LEGACY;

  /**
   * RFC 4648 &sect;5 (URL- and filename-safe) base 64 of the 8 big-endian bytes, 11 characters
   * without padding; decoding also accepts the 12-character form ending in {@code =}.
   */
  IdCodec BASE64URL = Codecs.BASE64URL;

  /** The name {@link #named} finds this codec by, e.g. {@code "base62"}. */
  String name();

  /**
   * The length of every encoding. For {@code decimal}, which is not padded, the maximum length: 20
   * (the unsigned maximum; 19 for non-negative longs).
   */
  int width();

  /** Whether every encoding has exactly {@link #width()} characters (all but {@code decimal}). */
  boolean fixedWidth();

  /**
   * Whether comparing encodings as strings ({@link String#compareTo}) gives the same order as
   * {@link Long#compareUnsigned} of the values, for all longs. For non-negative values (every
   * Snowflake ID) that is their ordinary numeric order; negative longs sort after all non-negative
   * ones. True where the alphabet is in ASCII order and the width is fixed.
   */
  boolean ordered();

  /** The canonical text form of {@code id}, read as unsigned 64 bits. */
  String encode(long id);

  /**
   * Reads a text form back to the 64 bits it encodes.
   *
   * @throws IdFormatException if {@code text} is null, empty, of the wrong length, has a character
   *     outside the alphabet, exceeds 2^64&minus;1 or (base32check) has a wrong check symbol
   */
  long decode(CharSequence text);

  /**
   * The codec with the given name, ignoring case.
   *
   * @throws InvalidSettingException (setting {@code "format"}) for an unknown name
   */
  static IdCodec named(String name) {
    IdCodec codec = name == null ? null : Codecs.BY_NAME.get(name.toLowerCase(Locale.ROOT));
    if (codec == null) {
      throw new InvalidSettingException(
          "format",
          name,
          "one of "
              + String.join(", ", names())
              + InvalidSettingException.nearMiss(name, sameRadix(name))
                  .map(n -> "; did you mean " + n + "?")
                  .orElse(""));
    }
    return codec;
  }

  /**
   * The names whose digits are those of {@code name}: {@code base58} is another encoding, not a
   * misspelt {@code base36}.
   */
  private static List<String> sameRadix(String name) {
    String digits = name == null ? "" : name.replaceAll("[^0-9]", "");
    return names().stream().filter(n -> n.replaceAll("[^0-9]", "").equals(digits)).toList();
  }

  /** The names of all codecs, in a stable order. */
  static List<String> names() {
    return Codecs.NAMES;
  }

  /**
   * The text form of {@code text}, for input whose form is not given; decided by its length alone,
   * so every text of one length gets the same outcome.
   *
   * <p>All digits, of a length no fixed-width form prints (1&ndash;10, 12, 15, 17&ndash;20), is
   * {@code decimal}. A text as long as a fixed-width form (11: {@code base62}, {@code
   * base62-legacy}, {@code base64url}; 13: {@code base32}, {@code base36}; 14: {@code base32check};
   * 16: {@code hex}) is never guessed, whatever its characters: decimal and, at 11 and 13, other
   * forms print that length too. It throws {@link UndetectedFormException} naming the forms that
   * read it; pass one of them to {@link #named}.
   *
   * @throws UndetectedFormException for a text as long as a fixed-width form that some form reads
   * @throws InvalidIdException if no form reads the text; an all-digits text of a decimal length
   *     that is no decimal ID (a leading zero, above 2^64&minus;1) gets the decimal codec's {@link
   *     IdFormatException}
   */
  static IdCodec detect(String text) {
    return FormDetection.detect(text);
  }
}
