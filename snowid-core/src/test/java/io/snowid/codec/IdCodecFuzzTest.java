package io.snowid.codec;

import static org.assertj.core.api.Assertions.fail;

import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded garbage for every decoder: it either returns the value whose encoding is the canonical
 * form of the input, or throws {@link IdFormatException} naming the codec, the input and a position
 * inside it. Nothing else. Replay with {@code -Dsnowid.seed=N}.
 */
class IdCodecFuzzTest {
  private static final int INPUTS = 100_000;

  /** Characters a sloppy decoder might accept: non-ASCII digits and letters, controls, halves. */
  private static final String ODD =
      "\u0000\t\n \u00e9\u0131\u0130\u212a\u017f\u0663\uff10\uff21\u00b2\u00bd\ud83d\ude00\ud800"
          + "\u00ff\u0100\u0080+-=_/.,:;*~$U";

  private static long seed;

  @BeforeAll
  static void seed() {
    seed = TestSeeds.seed(IdCodecFuzzTest.class);
  }

  static List<IdCodec> codecs() {
    return IdCodec.names().stream().map(IdCodec::named).collect(Collectors.toList());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("codecs")
  void decode_garbage_returnsTheCanonicalValueOrThrowsIdFormatException(IdCodec codec) {
    TestSeeds.onShortStack(() -> fuzz(codec));
  }

  private static void fuzz(IdCodec codec) {
    SplittableRandom r = new SplittableRandom(seed * 31 + codec.name().hashCode());
    String alphabet = alphabetOf(codec);
    for (int i = 0; i < INPUTS; i++) {
      String input =
          switch (r.nextInt(3)) {
            case 0 -> randomString(r, ODD + printableAscii(), r.nextInt(codec.width() * 2 + 3));
            case 1 -> randomString(r, alphabet, codec.width() + r.nextInt(-2, 3));
            default -> mutate(r, codec.encode(TestSeeds.randomId(r)), alphabet);
          };
      check(codec, input);
    }
  }

  private static void check(IdCodec codec, String input) {
    long value;
    try {
      value = codec.decode(input);
    } catch (IdFormatException e) {
      boolean ok =
          e.codec().equals(codec.name())
              && e.input().equals(input)
              && e.position() >= -1
              && e.position() < input.length()
              && e.getMessage().contains(codec.name());
      if (!ok) {
        fail("%s: bad exception for '%s' (seed=%d): %s", codec, input, seed, e);
      }
      return;
    } catch (RuntimeException e) {
      throw new AssertionError(codec + ": '" + input + "' threw (seed=" + seed + ")", e);
    }
    String canonical = TestSeeds.canonical(codec, input);
    if (!codec.encode(value).equals(canonical)) {
      fail(
          "%s accepted '%s' as %d, encoded '%s' (seed=%d)",
          codec, input, value, codec.encode(value), seed);
    }
  }

  /** The characters valid somewhere in the codec's input, in both cases, plus separators. */
  private static String alphabetOf(IdCodec codec) {
    StringBuilder sb = new StringBuilder("0123456789-=*~$");
    for (char c = 'a'; c <= 'z'; c++) {
      sb.append(c).append(Character.toUpperCase(c));
    }
    return codec.name().equals("base64url") ? sb.append("_").toString() : sb.toString();
  }

  private static String printableAscii() {
    StringBuilder sb = new StringBuilder();
    for (char c = 0x20; c < 0x7f; c++) {
      sb.append(c);
    }
    return sb.toString();
  }

  private static String randomString(SplittableRandom r, String chars, int length) {
    StringBuilder sb = new StringBuilder(Math.max(length, 0));
    for (int i = 0; i < length; i++) {
      sb.append(chars.charAt(r.nextInt(chars.length())));
    }
    return sb.toString();
  }

  /** One to three edits: substitute, insert, delete, swap neighbours, flip case. */
  private static String mutate(SplittableRandom r, String valid, String alphabet) {
    StringBuilder sb = new StringBuilder(valid);
    for (int edits = 1 + r.nextInt(3); edits > 0; edits--) {
      int at = sb.length() == 0 ? 0 : r.nextInt(sb.length());
      String pool = r.nextInt(4) == 0 ? ODD : alphabet;
      char c = pool.charAt(r.nextInt(pool.length()));
      switch (sb.length() == 0 ? 1 : r.nextInt(5)) {
        case 0 -> sb.setCharAt(at, c);
        case 1 -> sb.insert(at, c);
        case 2 -> sb.deleteCharAt(at);
        case 3 -> swap(sb, at);
        default -> sb.setCharAt(at, flipCase(sb.charAt(at)));
      }
    }
    return sb.toString();
  }

  private static void swap(StringBuilder sb, int at) {
    if (at + 1 < sb.length()) {
      char c = sb.charAt(at);
      sb.setCharAt(at, sb.charAt(at + 1));
      sb.setCharAt(at + 1, c);
    }
  }

  private static char flipCase(char c) {
    return Character.isUpperCase(c) ? Character.toLowerCase(c) : Character.toUpperCase(c);
  }
}
