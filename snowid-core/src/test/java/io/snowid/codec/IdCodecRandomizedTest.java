package io.snowid.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded round trips and order checks over millions of values. The seed is printed; replay a
 * failure with {@code -Dsnowid.seed=N}.
 */
class IdCodecRandomizedTest {
  private static final int ROUND_TRIPS = 1_000_000;
  private static final int PAIRS = 500_000;
  private static final int SORTED = 100_000;

  private static long seed;

  @BeforeAll
  static void seed() {
    seed = TestSeeds.seed(IdCodecRandomizedTest.class);
  }

  static List<IdCodec> codecs() {
    return IdCodec.names().stream().map(IdCodec::named).collect(Collectors.toList());
  }

  static List<IdCodec> orderedCodecs() {
    return codecs().stream().filter(IdCodec::ordered).collect(Collectors.toList());
  }

  @Test
  void ordered_exactlyTheAsciiOrderedFixedWidthForms_areOrdered() {
    assertThat(orderedCodecs())
        .extracting(IdCodec::name)
        .containsExactly("hex", "base32", "base32check", "base36", "base62");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("codecs")
  void decode_encodedRandomIds_givesTheSameIdAndWidth(IdCodec codec) {
    SplittableRandom r = new SplittableRandom(seed ^ codec.name().hashCode());
    for (int i = 0; i < ROUND_TRIPS; i++) {
      long id = TestSeeds.randomId(r);
      String text = codec.encode(id);
      boolean widthOk =
          codec.fixedWidth() ? text.length() == codec.width() : text.length() <= codec.width();
      if (!widthOk || codec.decode(text) != id) {
        fail(
            "%s: id %d encodes as '%s' which decodes as %d (seed=%d)",
            codec, id, text, codec.decode(text), seed);
      }
      if (!TestSeeds.canonical(codec, text).equals(text)) {
        fail("%s: '%s' for %d is not in canonical case (seed=%d)", codec, text, id, seed);
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("orderedCodecs")
  void compareTo_randomPairs_agreesWithUnsignedOrder(IdCodec codec) {
    SplittableRandom r = new SplittableRandom(seed ^ ~codec.name().hashCode());
    for (int i = 0; i < PAIRS; i++) {
      long a = TestSeeds.randomId(r);
      long b = r.nextBoolean() ? TestSeeds.randomId(r) : a + r.nextInt(-5000, 5000);
      int byText = Integer.signum(codec.encode(a).compareTo(codec.encode(b)));
      if (byText != Integer.signum(Long.compareUnsigned(a, b))) {
        fail("%s: order of %d and %d differs from their text order (seed=%d)", codec, a, b, seed);
      }
      if (a >= 0 && b >= 0 && byText != Integer.signum(Long.compare(a, b))) {
        fail("%s: signed order of %d and %d differs (seed=%d)", codec, a, b, seed);
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("orderedCodecs")
  void sort_encodedSortedRandomIds_staysSorted(IdCodec codec) {
    SplittableRandom r = new SplittableRandom(seed + codec.name().hashCode());
    Long[] ids = new Long[SORTED];
    for (int i = 0; i < SORTED; i++) {
      ids[i] = TestSeeds.randomId(r);
    }
    Arrays.sort(ids, Long::compareUnsigned);
    String previous = codec.encode(ids[0]);
    for (int i = 1; i < SORTED; i++) {
      String text = codec.encode(ids[i]);
      int expected = Integer.signum(Long.compareUnsigned(ids[i - 1], ids[i]));
      if (Integer.signum(previous.compareTo(text)) != expected) {
        fail(
            "%s: sorted ids %d, %d encode out of order as '%s', '%s' (seed=%d)",
            codec, ids[i - 1], ids[i], previous, text, seed);
      }
      previous = text;
    }
  }
}
