package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
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
}
