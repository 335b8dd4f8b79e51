package io.snowid.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.Int32Generator;
import io.snowid.InvalidIdException;
import io.snowid.Snowflake;
import io.snowid.TimeSource;
import io.snowid.testkit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link IdCodec#detect} over real generator output: for every layout whose IDs differ in width
 * (64-bit twitter, 53-bit js53, 31-bit int32) and every form, 100,000 IDs, issued over half a year
 * from a fixed date by a seeded node and clock, are each either decoded to the same ID or refused
 * naming that form, and the outcome is the same for all 100,000.
 */
class IdCodecDetectSweepTest {
  private static final int IDS = 100_000;
  private static final Instant FROM = Instant.parse("2026-11-27T00:00:00Z");

  private static final String DECIDED = IDS + " decided, 0 refused";
  private static final String REFUSED = "0 decided, " + IDS + " refused";

  private static long seed;

  @BeforeAll
  static void seed() {
    seed = TestSeeds.seed(IdCodecDetectSweepTest.class);
  }

  @ParameterizedTest
  @ValueSource(strings = {"twitter", "js53", "int32"})
  void detect_everyFormOfGeneratedIds_decidesAllOrRefusesAllNamingTheForm(String layout) {
    long[] ids = generate(layout, new SplittableRandom(seed ^ layout.hashCode()));
    Map<String, String> outcomes = new LinkedHashMap<>();
    Map<String, String> expected = new LinkedHashMap<>();
    TestSeeds.onShortStack(
        () -> {
          for (IdCodec form : Codecs.ALL) {
            outcomes.put(form.name(), outcome(form, ids));
            expected.put(form.name(), form == IdCodec.DECIMAL ? DECIDED : REFUSED);
          }
        });

    assertThat(outcomes).as(layout).isEqualTo(expected);
  }

  /**
   * How many of the IDs' texts in {@code form} were decoded to the same ID, refused naming {@code
   * form}, or neither (decoded to another ID, refused without naming it): the first such text.
   */
  private static String outcome(IdCodec form, long[] ids) {
    int decided = 0;
    int refused = 0;
    String wrong = null;
    for (long id : ids) {
      String text = form.encode(id);
      try {
        IdCodec detected = IdCodec.detect(text);
        if (detected.decode(text) == id) {
          decided++;
        } else if (wrong == null) {
          wrong = text + " read as " + detected.name();
        }
      } catch (UndetectedFormException e) {
        if (e.reasonWith("--format ").contains("--format " + form.name())) {
          refused++;
        } else if (wrong == null) {
          wrong = text + ": " + e.getMessage();
        }
      } catch (InvalidIdException e) {
        if (wrong == null) {
          wrong = text + ": " + e.getMessage();
        }
      }
    }
    return decided
        + " decided, "
        + refused
        + " refused"
        + (wrong == null ? "" : ", wrong: " + wrong);
  }

  /** IDs of one node, the clock moving on by a random 0-300 s between them. */
  private static long[] generate(String layout, SplittableRandom random) {
    ManualClock clock = ManualClock.at(FROM);
    TimeSource time = TimeSource.monotonic(clock);
    LongSupplier next;
    if (layout.equals("int32")) {
      Int32Generator gen = Int32Generator.forWorker(random.nextInt(32), time);
      next = gen::nextInt;
    } else {
      var builder = Snowflake.builder().layout(layout).timeSource(time);
      if (layout.equals("twitter")) {
        builder.node("datacenter", random.nextInt(32));
      }
      Snowflake gen = builder.node("worker", random.nextInt(32)).build();
      next = gen::nextId;
    }
    long[] ids = new long[IDS];
    for (int i = 0; i < IDS; i++) {
      ids[i] = next.getAsLong();
      clock.advance(Duration.ofMillis(random.nextLong(300_000)));
    }
    return ids;
  }
}
