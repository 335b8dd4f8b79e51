package io.snowid.server;

import io.snowid.codec.IdCodec;
import java.nio.charset.StandardCharsets;

/** IDs as response bodies: one per line, ASCII. Decimal is written digit by digit. */
final class IdText {
  private static final int MAX_DECIMAL = 20;

  private IdText() {}

  /** The number of bytes {@link #lines} needs at most. */
  static int capacity(int count, IdCodec codec) {
    int width = codec == null ? MAX_DECIMAL : codec.width();
    return count * (width + 1);
  }

  /** Writes each ID and a newline into {@code out}; returns the length written. */
  static int lines(long[] ids, IdCodec codec, byte[] out) {
    int pos = 0;
    for (long id : ids) {
      if (codec == null) {
        pos = decimal(id, out, pos);
      } else {
        pos = ascii(codec.encode(id), out, pos);
      }
      out[pos++] = '\n';
    }
    return pos;
  }

  /** One ID and a newline. */
  static byte[] line(long id, IdCodec codec) {
    if (codec != null || id < 0) {
      IdCodec c = codec == null ? IdCodec.DECIMAL : codec;
      return (c.encode(id) + "\n").getBytes(StandardCharsets.US_ASCII);
    }
    byte[] out = new byte[digits(id) + 1];
    decimal(id, out, 0);
    out[out.length - 1] = '\n';
    return out;
  }

  private static int digits(long nonNegative) {
    int digits = 1;
    for (long v = nonNegative; v >= 10; v /= 10) {
      digits++;
    }
    return digits;
  }

  /** Every codec's alphabet is ASCII. */
  private static int ascii(String s, byte[] out, int pos) {
    for (int i = 0; i < s.length(); i++) {
      out[pos + i] = (byte) s.charAt(i);
    }
    return pos + s.length();
  }

  /** Unsigned decimal digits of {@code id} at {@code pos}; returns the position after them. */
  static int decimal(long id, byte[] out, int pos) {
    if (id < 0) {
      return ascii(Long.toUnsignedString(id), out, pos);
    }
    int end = pos + digits(id);
    long v = id;
    for (int i = end - 1; i >= pos; i--) {
      out[i] = (byte) ('0' + (int) (v % 10));
      v /= 10;
    }
    return end;
  }
}
