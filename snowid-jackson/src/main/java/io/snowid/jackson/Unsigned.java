package io.snowid.jackson;

import java.math.BigInteger;

/** JSON integers beyond {@code Long.MAX_VALUE} read as unsigned 64 bits, as the text forms do. */
final class Unsigned {
  private static final BigInteger LIMIT = BigInteger.ONE.shiftLeft(64);

  private Unsigned() {}

  /** Whether {@code n} is in 0..2^64&minus;1 (its {@code longValue()} is then its 64 bits). */
  static boolean fits(BigInteger n) {
    return n.signum() >= 0 && n.compareTo(LIMIT) < 0;
  }
}
