package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link Layout#firstIdAt} and {@link Layout#lastIdAt}: the IDs of a stretch of time. */
class LayoutRangeTest {
  private static final long SEED = 20261127L;

  /** Every preset that does not wrap, and layouts of 10 ms and 1 s units with a clockback field. */
  static Stream<Layout> layouts() {
    List<Layout> all = new ArrayList<>();
    for (String name : Layout.presetNames()) {
      Layout l = Layout.preset(name);
      if (!l.wraps()) {
        all.add(l);
      }
    }
    all.add(
        Layout.parse(
            "time=40,clockback=1,worker=10,sequence=12,unit=10ms,epoch=2020-01-01T00:00:00Z"));
    all.add(
        Layout.parse(
            "time=32,worker=16,clockback=2,sequence=13,unit=1s,epoch=2020-01-01T00:00:00Z"));
    return all.stream();
  }

  private static Instant randomInstant(Layout layout, Random random) {
    long from = layout.epochMillis();
    long to =
        Math.min(
            layout.lastInstant().toEpochMilli(),
            Instant.parse("2200-01-01T00:00:00Z").toEpochMilli());
    return Instant.ofEpochMilli(from + (long) (random.nextDouble() * (to - from)))
        .plusNanos(random.nextInt(1_000_000));
  }

  /**
   * An ID a generator may issue at {@code at}: the time field its unit (counted here, not by the
   * code under test), every other field random (node values, sequence, clockback count).
   */
  private static long idIssuedAt(Layout layout, Instant at, Random random) {
    Map<String, Long> values = new HashMap<>();
    for (Layout.Field f : layout.fields()) {
      values.put(f.name(), (long) (random.nextDouble() * (f.max() + 1)));
    }
    values.put("time", (at.toEpochMilli() - layout.epochMillis()) / layout.unitMillis());
    return layout.compose(values);
  }

  @ParameterizedTest
  @MethodSource("layouts")
  void idsIssuedAtAnInstant_lieWithinItsBounds(Layout layout) {
    Random random = new Random(SEED ^ layout.spec().hashCode());
    for (int i = 0; i < 200; i++) {
      Instant at = randomInstant(layout, random);
      long first = layout.firstIdAt(at);
      long last = layout.lastIdAt(at);
      for (int k = 0; k < 20; k++) {
        long id = idIssuedAt(layout, at, random);
        assertThat(id).as("an ID issued at %s by %s", at, layout).isBetween(first, last);
      }
    }
  }

  @ParameterizedTest
  @MethodSource("layouts")
  void boundsOfConsecutiveUnits_touch_andAreTheUnitsExtremeIds(Layout layout) {
    Random random = new Random(SEED + layout.spec().hashCode());
    for (int i = 0; i < 200; i++) {
      Instant at = randomInstant(layout, random);
      Instant next = at.plus(layout.unit());
      if (next.isAfter(layout.lastInstant())) {
        continue;
      }
      assertThat(layout.lastIdAt(at) + 1).isEqualTo(layout.firstIdAt(next));
      long unit = layout.decode(layout.firstIdAt(at)).field("time");
      assertThat(layout.firstIdAt(at)).isEqualTo(layout.compose(valuesAt(layout, unit, false)));
      assertThat(layout.lastIdAt(at)).isEqualTo(layout.compose(valuesAt(layout, unit, true)));
      assertThat(layout.decode(layout.lastIdAt(at)).instant())
          .isEqualTo(layout.decode(layout.firstIdAt(at)).instant())
          .isBeforeOrEqualTo(at)
          .isAfter(at.minus(layout.unit()));
    }
  }

  private static Map<String, Long> valuesAt(Layout layout, long unit, boolean max) {
    Map<String, Long> values = new HashMap<>();
    for (Layout.Field f : layout.fields()) {
      values.put(f.name(), max ? f.max() : 0L);
    }
    values.put("time", unit);
    return values;
  }

  @Test
  void unitBoundaries_areExact() {
    Layout sonyflake = Layout.preset("sonyflake"); // 10 ms units
    Instant unitStart = sonyflake.epoch().plusMillis(123_450);
    assertThat(sonyflake.firstIdAt(unitStart)).isEqualTo(12_345L << sonyflake.timeField().shift());
    assertThat(sonyflake.firstIdAt(unitStart.plusMillis(9).plusNanos(999_999)))
        .isEqualTo(sonyflake.firstIdAt(unitStart));
    long unit = 1L << sonyflake.timeField().shift();
    assertThat(sonyflake.firstIdAt(unitStart.minusNanos(1)))
        .isEqualTo(sonyflake.firstIdAt(unitStart) - unit);
    assertThat(sonyflake.lastIdAt(unitStart.minusNanos(1)))
        .isEqualTo(sonyflake.firstIdAt(unitStart) - 1);
    Layout twitter = Layout.twitter();
    assertThat(twitter.firstIdAt(twitter.epoch())).isZero();
    assertThat(twitter.lastIdAt(twitter.lastInstant())).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void instantsOutsideTheLayout_areRefusedNamingItsLifetime() {
    Layout twitter = Layout.twitter();
    assertThatThrownBy(() -> twitter.firstIdAt(twitter.epoch().minusMillis(1)))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("instant = 2010-11-04T01:42:54.656Z")
        .hasMessageContaining("2010-11-04T01:42:54.657Z..2080-07-10T17:30:30.208Z");
    assertThatThrownBy(() -> twitter.lastIdAt(twitter.lastInstant().plusMillis(1)))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("2080-07-10T17:30:30.208Z");
    assertThatThrownBy(() -> twitter.firstIdAt(Instant.MAX))
        .isInstanceOf(InvalidSettingException.class);
    assertThatThrownBy(() -> twitter.firstIdAt(Instant.MIN))
        .isInstanceOf(InvalidSettingException.class);
  }

  @Test
  void wrappingLayout_isRefused() {
    Layout int32 = Layout.preset("int32");
    assertThatThrownBy(() -> int32.firstIdAt(Instant.parse("2026-01-01T00:00:00Z")))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("layout = ")
        .hasMessageContaining("repeats its IDs every 34m57");
  }

  @Test
  void layoutWithAFieldAboveTime_isRefused() {
    Layout l = Layout.parse("worker=4,time=41,sequence=12,epoch=2020-01-01T00:00:00Z");
    assertThatThrownBy(() -> l.firstIdAt(Instant.parse("2026-01-01T00:00:00Z")))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("time field is the most significant (here worker is");
  }
}
