package io.snowid.codec;

import io.snowid.InvalidIdException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link IdCodec#detect}: the length of a text decides. A length that no fixed-width form prints is
 * decimal; a length that one does (11, 13, 14, 16) is never guessed, whatever its characters, since
 * decimal and the other forms of that width can print it too. Rationale: docs/design.md, "Detecting
 * the text form".
 */
final class FormDetection {
  private static final int QUOTED = 40;

  private FormDetection() {}

  static IdCodec detect(String text) {
    if (text == null || text.isEmpty()) {
      throw new InvalidIdException(String.valueOf(text), "empty");
    }
    boolean digits = allDigits(text);
    List<IdCodec> atWidth = new ArrayList<>();
    for (IdCodec codec : Codecs.ALL) {
      if (codec.fixedWidth() && codec.width() == text.length()) {
        atWidth.add(codec);
      }
    }
    if (atWidth.isEmpty()) {
      if (digits) {
        IdCodec.DECIMAL.decode(text); // a leading zero or above 2^64-1: the decimal error
        return IdCodec.DECIMAL;
      }
      throw notAnyForm(text);
    }
    List<String> candidates = new ArrayList<>();
    List<String> readers = new ArrayList<>();
    for (IdCodec codec : atWidth) {
      candidates.add(codec.name());
      if (reads(codec, text)) {
        readers.add(codec.name());
      }
    }
    candidates.add(IdCodec.DECIMAL.name());
    if (digits && reads(IdCodec.DECIMAL, text)) {
      readers.add(IdCodec.DECIMAL.name());
    }
    if (readers.isEmpty()) {
      throw notAnyForm(text);
    }
    throw new UndetectedFormException(text, candidates, readers);
  }

  private static InvalidIdException notAnyForm(String text) {
    return new InvalidIdException(
        shorten(text),
        "not an id in any text form: expected decimal (1-20 digits), hex (16), base32 (13),"
            + " base32check (14), base36 (13), base62 (11), base62-legacy (11) or base64url (11)");
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
