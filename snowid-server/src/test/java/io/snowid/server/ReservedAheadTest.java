package io.snowid.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.Layout;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ReservedAheadTest {
  @Test
  void cap_isTheTimeAtTheLayoutsFullRatePerNode() {
    assertThat(new ReservedAhead(Duration.ofMillis(250), Layout.twitter()).cap())
        .isEqualTo(1_024_000);
    // sonyflake: 256 IDs per 10 ms unit
    assertThat(new ReservedAhead(Duration.ofMillis(250), Layout.preset("sonyflake")).cap())
        .isEqualTo(6_400);
    assertThat(new ReservedAhead(Duration.ofMillis(1), Layout.preset("sonyflake")).cap())
        .isEqualTo(26);
  }

  @Test
  void tryTake_withinTheCap_untilItIsFull_thenRefused_untilGivenBack() {
    ReservedAhead r = new ReservedAhead(Duration.ofMillis(1), Layout.twitter()); // 4096

    assertThat(r.tryTake(4000)).isTrue();
    assertThat(r.tryTake(96)).isTrue();
    assertThat(r.tryTake(1)).isFalse();
    assertThat(r.taken()).isEqualTo(4096);

    r.give(4000);
    assertThat(r.tryTake(1)).isTrue();
    assertThat(r.taken()).isEqualTo(97);
  }

  @Test
  void tryTake_largerThanTheCap_isAdmittedOnlyAlone() {
    ReservedAhead r = new ReservedAhead(Duration.ofMillis(1), Layout.twitter()); // 4096

    assertThat(r.tryTake(100_000)).isTrue();
    assertThat(r.tryTake(1)).isFalse();
    r.give(100_000);
    assertThat(r.tryTake(1)).isTrue();
    assertThat(r.tryTake(100_000)).isFalse();
  }
}
