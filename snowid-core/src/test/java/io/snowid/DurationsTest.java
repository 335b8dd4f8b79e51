package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

  @ParameterizedTest
  @CsvSource({
    "PT34M57.152S, 34m57s",
    "PT1.5S, 1.5s",
    "PT0.25S, 250ms",
    "PT2H, 2h",
    "PT76H, 3d4h",
    "PT1H0.5S, 1h",
    "PT1H5S, 1h5s",
    "PT57.152S, 57.152s",
    "PT10S, 10s",
    "PT0.0005S, 0.5ms",
    "PT0S, 0s",
    "PT-1.5S, -1.5s",
  })
  void format_printsTheCompactForm(Duration d, String text) {
    assertThat(Durations.format(d)).isEqualTo(text);
  }

  @ParameterizedTest
  @CsvSource({
    "500ms, PT0.5S",
    "10s, PT10S",
    "1m, PT1M",
    "1h, PT1H",
    "1d, PT24H",
    "1m30s, PT1M30S",
    "3d4h, PT76H",
    "1.5s, PT1.5S",
    "10MS, PT0.01S",
  })
  void parse_readsWhatPeopleWrite(String text, Duration d) {
    assertThat(Durations.parse(text)).hasValue(d);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"", "10", "s", "10 s", "1.5m30s", "30s1m", "1m1m", "PT10S", "-1s", "1w", "1.s"})
  void parse_refusesAnythingElse(String text) {
    assertThat(Durations.parse(text)).isEmpty();
  }

  @Test
  void parse_readsBackWhatFormatPrints_toItsPrecision() {
    Random random = new Random(26);
    for (int i = 0; i < 100_000; i++) {
      long nanos = (long) Math.pow(10, random.nextDouble() * 15); // 1 ns .. ~11 days
      Duration d = Duration.ofNanos(nanos);
      Duration read = Durations.parse(Durations.format(d)).orElseThrow();
      Duration precision =
          d.compareTo(Duration.ofSeconds(1)) < 0
              ? Duration.ofNanos(1_000)
              : d.compareTo(Duration.ofMinutes(1)) < 0
                  ? Duration.ofMillis(1)
                  : Duration.ofSeconds(1);
      assertThat(read).isLessThanOrEqualTo(d);
      assertThat(d.minus(read)).isLessThan(precision);
    }
  }
}
