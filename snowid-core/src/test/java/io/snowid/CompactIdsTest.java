package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.testkit.IdChecker;
import io.snowid.testkit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The js53 preset (JavaScript-safe for life) and the 32-bit IDs. */
class CompactIdsTest {
  private static final long JS_MAX_SAFE = (1L << 53) - 1;

  @Test
  void js53_largestIdOfItsLifetime_isAJavaScriptSafeInteger() {
    Layout js53 = Layout.preset("js53");
    assertThat(js53.totalBits()).isEqualTo(53); // so every composable ID is < 2^53
    long largest = js53.compose(js53.maxTime(), 31, 127);
    assertThat(largest).isEqualTo(JS_MAX_SAFE);
    assertThat((long) (double) largest).isEqualTo(largest);
    assertThat(js53.lastInstant()).isAfter(Instant.parse("2093-01-01T00:00:00Z"));
  }

  @Test
  void js53_generatorAtItsLastInstant_staysBelow2pow53ThenStops() {
    Layout js53 = Layout.preset("js53");
    ManualClock clock = ManualClock.at(js53.lastInstant());
    Snowflake gen =
        Snowflake.builder()
            .layout(js53)
            .node("worker", 31)
            .timeSource(TimeSource.monotonic(clock))
            .build();
    long id = gen.nextId();
    assertThat(id).isPositive().isLessThanOrEqualTo(JS_MAX_SAFE);
    assertThat(js53.decode(id).time()).isEqualTo(js53.maxTime());
    clock.advance(Duration.ofMillis(1));
    assertThatThrownBy(gen::nextId).isInstanceOf(LayoutExpiredException.class);
  }

  @Test
  void snowId_nextJs53_isSafeAndIncreasing() {
    long a = SnowId.nextJs53();
    long b = SnowId.nextJs53();
    assertThat(b).isGreaterThan(a);
    assertThat(b).isLessThanOrEqualTo(JS_MAX_SAFE);
    assertThat(Layout.preset("js53").decode(b).instant())
        .isBetween(Instant.now().minusSeconds(5), Instant.now().plusSeconds(1));
  }

  @Test
  void int32_preset_wrapsEvery2pow21Millis() {
    Layout int32 = Layout.preset("int32");
    assertThat(int32.wraps()).isTrue();
    assertThat(int32.totalBits()).isEqualTo(31);
    assertThat(int32.wrapWindow()).isEqualTo(Duration.ofMillis(1L << 21));
    assertThat(int32.wrapWindow()).isBetween(Duration.ofMinutes(34), Duration.ofMinutes(35));
    assertThat(Layout.parse(int32.spec())).isEqualTo(int32);
    assertThat(int32.spec()).endsWith(",wrap=true");
  }

  @Test
  void build_wrappingLayout_isRefusedPointingToInt32Generator() {
    assertThatThrownBy(() -> Snowflake.builder().layout("int32").node("worker", 1).build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("Int32Generator");
  }

  @Test
  void nextInt_acrossAFullWrapWindow_neverZeroOrNegativeAndUniqueWithinTheWindow() {
    ManualClock clock = ManualClock.at(Instant.parse("2025-01-01T00:00:00Z"));
    Int32Generator gen = Int32Generator.forWorker(0, TimeSource.monotonic(clock));
    long window = 1L << 21;
    int perMilli = 2;
    int count = (int) (window + 2_000) * perMilli;
    int[] ids = new int[count];
    long[] when = new long[count];
    long start = clock.wallMillis();
    for (int i = 0; i < count; i++) {
      ids[i] = gen.nextInt();
      when[i] = clock.wallMillis() - start;
      if (i % perMilli == perMilli - 1) {
        clock.advance(Duration.ofMillis(1));
      }
    }
    Integer[] order = new Integer[count];
    for (int i = 0; i < count; i++) {
      order[i] = i;
      assertThat(ids[i]).as("id %d", i).isPositive();
    }
    Arrays.sort(
        order,
        (a, b) ->
            ids[a] != ids[b] ? Integer.compare(ids[a], ids[b]) : Long.compare(when[a], when[b]));
    int repeats = 0;
    for (int k = 1; k < count; k++) {
      int a = order[k - 1];
      int b = order[k];
      if (ids[a] == ids[b]) {
        repeats++;
        assertThat(when[b] - when[a]).as("repeat of %d", ids[a]).isGreaterThanOrEqualTo(window);
      }
    }
    assertThat(repeats).as("the window did wrap").isPositive();
  }

  @Test
  void nextInt_worker0AtWindowStart_skipsTheZeroId() {
    // the time field is 0 at multiples of 2^21 ms since 1970
    long windowStart = (System.currentTimeMillis() >> 21) << 21;
    ManualClock clock = ManualClock.at(Instant.ofEpochMilli(windowStart - 1));
    Int32Generator gen = Int32Generator.forWorker(0, TimeSource.monotonic(clock));
    for (int i = 0; i < 200; i++) {
      assertThat(gen.nextInt()).isNotZero().isPositive();
    }
  }

  @Test
  void nextInt_manyThreadsWithinTheWindow_unique() {
    ManualClock clock = ManualClock.create().autoAdvance(Duration.ofNanos(1_000));
    Int32Generator gen = Int32Generator.forWorker(17, TimeSource.monotonic(clock));
    IdChecker.check(gen::nextInt, 4, 20_000).assertClean();
  }

  @Test
  void decode_int32WithReference_givesTheInstantInsideTheWindow() {
    Instant issued = Instant.parse("2025-05-05T10:00:00.123Z");
    ManualClock clock = ManualClock.at(issued);
    Int32Generator gen = Int32Generator.forWorker(5, TimeSource.monotonic(clock));
    int id = gen.nextInt();
    DecodedId d = Int32Generator.decode(id, issued.plus(Duration.ofMinutes(20)));
    assertThat(d.instant()).isEqualTo(issued);
    assertThat(d.field("worker")).isEqualTo(5);
    assertThat(gen.wrapWindow()).isEqualTo(Duration.ofMillis(2_097_152));
  }
}
