package io.snowid.codec;

import static org.assertj.core.api.Assertions.fail;

import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The claim of Crockford's check symbol: every single-character substitution and every swap of two
 * adjacent characters of a valid {@code base32check} encoding is rejected (unless it only changes
 * case or writes an alias such as {@code I} for {@code 1}, which reads as the same symbol).
 */
class Base32CheckTest {
  private static final int IDS = 3_000;

  /**
   * What a typo can turn a symbol into that the alphabet does not reject outright: every data and
   * check symbol, and the aliases. (Characters outside the alphabet are the fuzz test's business.)
   */
  private static final String SUBSTITUTES = "0123456789ABCDEFGHJKMNPQRSTVWXYZ*~$=UILOilo";

  private static long seed;

  @BeforeAll
  static void seed() {
    seed = TestSeeds.seed(Base32CheckTest.class);
  }

  @Test
  void decode_anySingleSubstitution_isRejected() {
    TestSeeds.onShortStack(Base32CheckTest::substitutions);
  }

  private static void substitutions() {
    SplittableRandom r = new SplittableRandom(seed);
    for (int n = 0; n < IDS; n++) {
      long id = TestSeeds.randomId(r);
      String valid = IdCodec.BASE32_CHECK.encode(id);
      for (int i = 0; i < valid.length(); i++) {
        for (int s = 0; s < SUBSTITUTES.length(); s++) {
          StringBuilder typo = new StringBuilder(valid);
          typo.setCharAt(i, SUBSTITUTES.charAt(s));
          expectRejectedUnlessSameSymbols(valid, typo.toString(), id);
        }
      }
    }
  }

  @Test
  void decode_anyAdjacentTransposition_isRejected() {
    TestSeeds.onShortStack(Base32CheckTest::transpositions);
  }

  private static void transpositions() {
    SplittableRandom r = new SplittableRandom(~seed);
    for (int n = 0; n < IDS * 10; n++) {
      long id = TestSeeds.randomId(r);
      String valid = IdCodec.BASE32_CHECK.encode(id);
      for (int i = 0; i + 1 < valid.length(); i++) {
        if (valid.charAt(i) == valid.charAt(i + 1)) {
          continue;
        }
        char[] swapped = valid.toCharArray();
        swapped[i] = valid.charAt(i + 1);
        swapped[i + 1] = valid.charAt(i);
        expectRejectedUnlessSameSymbols(valid, new String(swapped), id);
      }
    }
  }

  private static void expectRejectedUnlessSameSymbols(String valid, String typo, long id) {
    boolean same = TestSeeds.canonical(IdCodec.BASE32_CHECK, typo).equals(valid);
    try {
      long got = IdCodec.BASE32_CHECK.decode(typo);
      if (!same || got != id) {
        fail("'%s' (a typo of '%s') was accepted as %d (seed=%d)", typo, valid, got, seed);
      }
    } catch (IdFormatException e) {
      if (same) {
        fail("'%s' spells '%s' but was rejected (seed=%d): %s", typo, valid, seed, e);
      }
    }
  }
}
