package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The generator's position encoding: it composes the layout's IDs and carries as designed. */
class PositionTest {
  private static final long SEED = 0x9051_7104L;

  private static final String[] SPECS = {
    "time=41,datacenter=5,worker=5,sequence=12,epoch=2010-11-04T01:42:54.657Z,unit=1ms",
    "time=39,sequence=8,machine=16,epoch=2014-09-01T00:00:00Z,unit=10ms",
    "time=40,worker=10,clockback=2,sequence=11,epoch=2020-01-01T00:00:00Z,unit=1ms",
    "time=10,worker=1,sequence=4,epoch=2020-01-01T00:00:00Z,unit=1ms"
  };

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 3})
  void compose_randomPositions_matchesLayoutComposeAndGrowsWithThePosition(int which) {
    Layout layout = Layout.parse(SPECS[which]);
    Position position = new Position(layout);
    SplittableRandom random = new SplittableRandom(SEED);
    long cbMax = position.maxClockback();
    long seqMax = layout.sequenceField().max();
    for (int i = 0; i < 1000; i++) {
      long cb = random.nextLong(cbMax + 1);
      long tick = random.nextLong(layout.maxTime() + 1);
      long seq = random.nextLong(seqMax + 1);
      Map<String, Long> values = new LinkedHashMap<>();
      long nodeBits = 0;
      for (Layout.Field f : layout.fields()) {
        long v =
            switch (f.name()) {
              case "time" -> tick;
              case "sequence" -> seq;
              case "clockback" -> cb;
              default -> random.nextLong(f.max() + 1);
            };
        values.put(f.name(), v);
        if (f.isNode()) {
          nodeBits |= v << f.shift();
        }
      }
      long p = withClockback(position, cb, tick, seq);

      assertThat(position.compose(nodeBits, p)).isEqualTo(layout.compose(values));
      if (tick < layout.maxTime()) { // within one clockback count, the next position is a later ID
        assertThat(position.compose(nodeBits, p + 1)).isGreaterThan(position.compose(nodeBits, p));
      }
      assertThat(position.tick(p)).isEqualTo(tick);
      assertThat(position.clockback(p)).isEqualTo(cb);
      assertThat(position.readingTick(position.reading(p))).isEqualTo(tick);
      assertThat(position.readingClockback(position.reading(p))).isEqualTo(cb);
    }
  }

  private static long withClockback(Position position, long cb, long tick, long seq) {
    long part = 0;
    for (long i = 0; i < cb; i++) {
      part = position.nextClockback(part);
    }
    return position.positionAt(part, tick, seq);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 3})
  void plusOne_atTheLastSequence_carriesIntoTheNextTickAndPastTheLastTickIntoTheSpareBit(
      int which) {
    Layout layout = Layout.parse(SPECS[which]);
    Position position = new Position(layout);
    long seqMax = layout.sequenceField().max();
    long cbPart = withClockback(position, position.maxClockback(), 0, 0);

    long carried = position.positionAt(cbPart, 7, seqMax) + 1;
    assertThat(position.tick(carried)).isEqualTo(8);
    assertThat(position.clockbackPart(carried)).isEqualTo(cbPart);

    long pastLast = position.positionAt(cbPart, position.maxTick(), seqMax) + 1;
    assertThat(position.tick(pastLast)).isEqualTo(position.maxTick() + 1);
    assertThat(position.tickAbove(cbPart, pastLast)).isGreaterThan(position.maxTick());
    assertThat(position.clockback(pastLast)).isEqualTo(position.maxClockback());
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1})
  void tickAt_millisBeforeAndAfterTheEpoch_floorsToWholeUnits(int which) {
    Layout layout = Layout.parse(SPECS[which]);
    Position position = new Position(layout);
    long unit = layout.unitMillis();
    long epoch = layout.epochMillis();
    assertThat(position.tickAt(epoch)).isZero();
    assertThat(position.tickAt(epoch + unit - 1)).isZero();
    assertThat(position.tickAt(epoch + 5 * unit)).isEqualTo(5);
    assertThat(position.tickAt(epoch - 1)).isEqualTo(-1);
    assertThat(position.millisAt(5)).isEqualTo(epoch + 5 * unit);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 3})
  void busy_moreThanHalfOfTheSequenceUsed_andSpreadStaysBelowHalf(int which) {
    Layout layout = Layout.parse(SPECS[which]);
    Position position = new Position(layout);
    long half = (layout.sequenceField().max() + 1) / 2;
    assertThat(position.busy(position.positionAt(0, 3, half - 1))).isFalse();
    assertThat(position.busy(position.positionAt(0, 3, half))).isTrue();
    assertThat(position.spread(-1L)).isEqualTo(half - 1);
    assertThat(position.spread(0)).isZero();
  }

  private static final long MS = 1_000_000L;

  @ParameterizedTest
  @ValueSource(
      strings = {
        "time=41,datacenter=5,worker=5,sequence=12,epoch=2010-11-04T01:42:54.657Z,unit=1ms",
        "time=42,worker=5,process=5,sequence=12,epoch=1420070400000,unit=1ms",
        "time=39,sequence=8,machine=16,epoch=2014-09-01T00:00:00Z,unit=10ms",
        "time=40,worker=10,clockback=2,sequence=11,epoch=1900-01-01T00:00:00Z,unit=1s",
        "time=36,worker=1,sequence=12,epoch=0,unit=1d"
      })
  void inTick_randomReadingsAndTicks_trueExactlyWhenTheReadingFallsInTheTick(String spec) {
    Layout layout = Layout.parse(spec);
    Position position = new Position(layout);
    long epoch = layout.epochMillis();
    long unit = layout.unitMillis();
    long tickLimit = position.tick(-1L); // every tick a position can hold, the spare bit included
    SplittableRandom random = new SplittableRandom(SEED);
    int checkedTrue = 0;
    for (int i = 0; i < 200_000; i++) {
      long nanos =
          switch (i % 3) {
            case 0 -> random.nextLong(); // anywhere a long of nanoseconds reaches
            case 1 -> Long.MAX_VALUE - random.nextLong(3 * unit * MS);
            default -> // the layout's lifetime, as far as it is in nanoseconds
                (epoch + random.nextLong(Math.min(tickLimit, Long.MAX_VALUE / MS / unit)) * unit)
                        * MS
                    + random.nextLong(unit * MS);
          };
      long readingTick = Math.floorDiv(Math.floorDiv(nanos, MS) - epoch, unit);
      long[] ticks = {
        readingTick - 1, readingTick, readingTick + 1, random.nextLong(tickLimit + 1), tickLimit
      };
      for (long tick : ticks) {
        if (tick < 0 || tick > tickLimit) {
          continue;
        }
        boolean in = position.inTick(nanos, tick);
        if (in) {
          assertThat(tick).as("reading %d ns", nanos).isEqualTo(readingTick);
          checkedTrue++;
        } else if (tick == readingTick && endsWithinLongNanos(epoch, unit, tick + 1)) {
          throw new AssertionError("reading " + nanos + " ns is in tick " + tick + ": false");
        }
      }
    }
    assertThat(checkedTrue).isGreaterThan(10_000); // the true answers were checked too
  }

  @Test
  void inTick_epochBefore1677_alwaysFalse() {
    Position position =
        new Position(
            Layout.parse("time=41,worker=10,sequence=12,epoch=1600-01-01T00:00:00Z,unit=1ms"));
    SplittableRandom random = new SplittableRandom(SEED);
    for (int i = 0; i < 10_000; i++) {
      assertThat(position.inTick(random.nextLong(), random.nextLong(1L << 41))).isFalse();
    }
  }

  /** Whether the tick {@code tick} (one past the tick asked about) starts within long nanos. */
  private static boolean endsWithinLongNanos(long epoch, long unit, long tick) {
    BigInteger end =
        BigInteger.valueOf(epoch)
            .add(BigInteger.valueOf(tick).multiply(BigInteger.valueOf(unit)))
            .multiply(BigInteger.valueOf(MS));
    // one tick of slack: the limit is computed with floor divisions and may be one tick lower
    return end.add(BigInteger.valueOf(unit * MS)).compareTo(BigInteger.valueOf(Long.MAX_VALUE)) <= 0
        && BigInteger.valueOf(epoch)
                .multiply(BigInteger.valueOf(MS))
                .compareTo(BigInteger.valueOf(Long.MIN_VALUE))
            > 0;
  }
}
