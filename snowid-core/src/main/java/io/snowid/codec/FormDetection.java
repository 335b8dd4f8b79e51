package io.snowid.codec;

import io.snowid.InvalidIdException;
import java.util.ArrayList;
import java.util.List;

/** {@link IdCodec#detect}: which text form reads an ID, when only one does. */
final class FormDetection {
  /** Every form but {@code base62-legacy}, which is only ever read when asked for. */
  private static final List<IdCodec> DETECTED =
      List.of(
          IdCodec.DECIMAL,
          IdCodec.HEX,
          IdCodec.BASE32,
          IdCodec.BASE32_CHECK,
          IdCodec.BASE36,
          IdCodec.BASE62,
          IdCodec.BASE64URL);

  private static final int QUOTED = 40;

  private FormDetection() {}

  static IdCodec detect(String text) {
    if (text == null || text.isEmpty()) {
      throw new InvalidIdException(String.valueOf(text), "empty");
    }
    IdFormatException decimalError = null;
    if (allDigits(text)) {
      try {
        IdCodec.DECIMAL.decode(text);
        return IdCodec.DECIMAL;
      } catch (IdFormatException e) {
        decimalError = e;
      }
    }
    List<IdCodec> readers = new ArrayList<>();
    for (IdCodec codec : DETECTED) {
      if (reads(codec, text)) {
        readers.add(codec);
      }
    }
    if (readers.size() > 1) {
      List<IdCodec> canonical = new ArrayList<>();
      for (IdCodec codec : readers) {
        if (codec.encode(codec.decode(text)).equals(text)) {
          canonical.add(codec);
        }
      }
      if (canonical.size() == 1) {
        return canonical.get(0);
      }
    }
    if (readers.size() == 1) {
      return readers.get(0);
    }
    if (readers.isEmpty()) {
      if (decimalError != null) {
        throw decimalError;
      }
      throw new InvalidIdException(
          shorten(text),
          "not an id in any text form: expected decimal (1-20 digits), hex (16), base32 (13),"
              + " base32check (14), base36 (13), base62 (11) or base64url (11)");
    }
    List<String> names = new ArrayList<>();
    for (IdCodec codec : readers) {
      names.add(codec.name());
    }
    throw new InvalidIdException(
        text,
        "ambiguous: it reads as "
            + String.join(" and as ", names)
            + "; say which with the format option");
  }

  private static boolean reads(IdCodec codec, String text) {
    try {
      codec.decode(text);
      return true;
    } catch (IdFormatException e) {
      return false;
    }
  }

  private static boolean allDigits(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  /** Input quoted in a message, cut to a readable length. */
  private static String shorten(String s) {
    return s.length() <= QUOTED ? s : s.substring(0, QUOTED) + "…";
  }
}
