package io.snowid.codec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The built-in codecs and the name index {@link IdCodec#named} reads. */
final class Codecs {
  private Codecs() {}

  static final DecimalCodec DECIMAL = new DecimalCodec();

  static final RadixCodec HEX =
      new RadixCodec("hex", Alphabet.of("0123456789abcdef", true, "0-9a-f (any case)"), 16, true);

  static final RadixCodec BASE32 =
      new RadixCodec(
          "base32",
          Alphabet.crockford(
              "0123456789ABCDEFGHJKMNPQRSTVWXYZ",
              "Crockford 0-9A-Z without U (any case; I,L read as 1, O as 0; '-' ignored)"),
          13,
          true);

  static final Base32CheckCodec BASE32_CHECK = new Base32CheckCodec(BASE32);

  static final RadixCodec BASE36 =
      new RadixCodec(
          "base36",
          Alphabet.of("0123456789abcdefghijklmnopqrstuvwxyz", true, "0-9a-z (any case)"),
          13,
          true);

  static final RadixCodec BASE62 =
      new RadixCodec(
          "base62",
          Alphabet.of(
              "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", false, "0-9A-Za-z"),
          11,
          true);

  static final RadixCodec BASE62_LEGACY =
      new RadixCodec(
          "base62-legacy",
          Alphabet.of(
              "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", false, "0-9a-zA-Z"),
          11,
          false);

  static final Base64UrlCodec BASE64URL = new Base64UrlCodec();

  static final List<IdCodec> ALL =
      List.of(DECIMAL, HEX, BASE32, BASE32_CHECK, BASE36, BASE62, BASE62_LEGACY, BASE64URL);

  static final Map<String, IdCodec> BY_NAME;
  static final List<String> NAMES;

  static {
    Map<String, IdCodec> byName = new LinkedHashMap<>();
    List<String> names = new ArrayList<>();
    for (IdCodec codec : ALL) {
      byName.put(codec.name(), codec);
      names.add(codec.name());
    }
    BY_NAME = Map.copyOf(byName);
    NAMES = List.copyOf(names);
  }
}
