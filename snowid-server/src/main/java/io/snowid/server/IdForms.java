package io.snowid.server;

import io.snowid.InvalidIdException;
import io.snowid.codec.IdCodec;
import io.snowid.codec.IdFormatException;
import java.util.ArrayList;
import java.util.List;

/**
 * Tells which text form an ID is written in, when only one form can read it.
 *
 * <p>All digits is {@code decimal}. Otherwise every form (except {@code base62-legacy}, which is
 * only ever read when asked for) tries to decode the text; if exactly one can, that is the form. If
 * several can, the one whose own output is exactly the text wins (canonical {@code base32} is upper
 * case, {@code base36} lower case). Anything else is ambiguous: {@code 11} letters and digits, for
 * example, read as both {@code base62} and {@code base64url}, and the caller has to say which.
 */
public final class IdForms {
  private static final List<IdCodec> DETECTED =
      List.of(
          IdCodec.DECIMAL,
          IdCodec.HEX,
          IdCodec.BASE32,
          IdCodec.BASE32_CHECK,
          IdCodec.BASE36,
          IdCodec.BASE62,
          IdCodec.BASE64URL);

  private IdForms() {}

  /**
   * The one form that reads {@code text}.
   *
   * @throws InvalidIdException if no form reads it, or several do (the message lists them)
   */
  public static IdCodec detect(String text) {
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
          Query.shorten(text),
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
}
