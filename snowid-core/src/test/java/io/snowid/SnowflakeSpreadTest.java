package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.testkit.ManualClock;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Low-traffic IDs must not all end in sequence 0: sharding by id % n stays even. The generator's
 * random source is seeded ({@code SnowflakeBuilder.random}), so these statistical tests are
 * deterministic: they cannot fail by chance, and a failure reproduces.
 */
class SnowflakeSpreadTest {
  private static final int IDS = 40_000;
  private static final long SEED = 0x5EED_10L;

  private static long[] lowTrafficIds() {
    ManualClock clock = ManualClock.create();
    Snowflake gen =
        Snowflake.builder()
            .node("datacenter", 2)
            .node("worker", 4)
            .timeSource(TimeSource.monotonic(clock))
            .random(new SplittableRandom(SEED))
            .build();
    long[] ids = new long[IDS];
    for (int i = 0; i < IDS; i++) {
      ids[i] = gen.nextId();
      clock.advance(Duration.ofMillis(1)); // one ID per millisecond
    }
    gen.close(); // its node values are free for the next one at once
    return ids;
  }

  // Critical values of the chi-square distribution at p = 0.0001 for n - 1 degrees of freedom.
  @ParameterizedTest(name = "id % {0}")
  @CsvSource({"2, 15.14", "3, 18.42", "4, 21.11", "5, 23.51", "8, 29.88", "10, 33.72", "16, 44.26"})
  void nextId_oneIdPerMillisecond_isEvenModuloSmallN(int n, double critical) {
    long[] counts = new long[n];
    for (long id : lowTrafficIds()) {
      counts[(int) (id % n)]++;
    }
    double expected = (double) IDS / n;
    double chiSquare = 0;
    for (long c : counts) {
      chiSquare += (c - expected) * (c - expected) / expected;
    }
    assertThat(chiSquare)
        .as("chi-square of id %% %d, counts %s", n, java.util.Arrays.toString(counts))
        .isLessThan(critical);
  }

  @Test
  void nextId_oneIdPerMillisecond_sequencesAreNotAllZero() {
    long zeros = 0;
    for (long id : lowTrafficIds()) {
      zeros += (id & 4095) == 0 ? 1 : 0;
    }
    assertThat(zeros).isLessThan(IDS / 100);
  }

  /**
   * One-shot use (a CLI run, a cron job, a serverless call) issues one ID per fresh generator: its
   * sequence must be spread as after any quiet tick, not always 0, with or without a previous
   * holder's high-water mark, and also when the first ID falls in the very tick after that mark (1
   * ms before now) or has to wait for it (0).
   */
  @ParameterizedTest(name = "high-water mark {0} ms before now")
  @CsvSource({"none", "60000", "1", "0"})
  void nextId_freshGenerator_firstSequenceIsSpreadLikeAQuietTick(String markBeforeNow) {
    SplittableRandom seeds = new SplittableRandom(SEED);
    Set<Long> sequences = new HashSet<>();
    int generators = 200;
    for (int i = 0; i < generators; i++) {
      ManualClock clock = ManualClock.create();
      TimeSource time = TimeSource.monotonic(clock);
      SnowflakeBuilder builder =
          Snowflake.builder()
              .node("datacenter", 2)
              .node("worker", 4)
              .timeSource(time)
              .random(seeds.split());
      if (!markBeforeNow.equals("none")) {
        builder.startAfter(time.millis() - Long.parseLong(markBeforeNow));
      }
      Snowflake gen = builder.build();
      long sequence = gen.layout().decode(gen.nextId()).sequence();
      gen.close();
      assertThat(sequence).as("generator %d", i).isBetween(0L, 2048L);
      sequences.add(sequence);
    }
    assertThat(sequences)
        .as("distinct first sequences of %d generators", generators)
        .hasSizeGreaterThan(150);
  }

  @Test
  void nextId_afterABusyTickTheClockMovesOn_newTickStartsAtZero() {
    ManualClock clock = ManualClock.create();
    Snowflake gen =
        Snowflake.builder()
            .node("datacenter", 2)
            .node("worker", 4)
            .timeSource(TimeSource.monotonic(clock))
            .random(new SplittableRandom(SEED))
            .build();
    long id;
    do { // until the tick is busy: more than half of its sequence used, wherever it started
      id = gen.nextId();
    } while (gen.layout().decode(id).sequence() < 2048);
    // descheduled across the boundary for longer than a catch-up goes (SnowflakeCatchUpTest)
    clock.advance(Duration.ofMillis(Position.CATCH_UP_MILLIS + 2));

    assertThat(gen.layout().decode(gen.nextId()).sequence()).isZero();
  }
}
