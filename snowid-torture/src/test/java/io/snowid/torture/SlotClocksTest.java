package io.snowid.torture;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SlotClocksTest {
  private static FaultLog.Applied forward(int slot, long from, long to, long by, long offset) {
    return new FaultLog.Applied(
        FaultKind.CLOCK_FORWARD,
        slot,
        from * 1000,
        to * 1000,
        Integer.toString(slot),
        by,
        "step " + by + "ms to offset " + offset + "ms");
  }

  @Test
  void highest_overlappingStepsOfOneSlot_compose() {
    // slot 2 stands 300 ms ahead; +2000 from 1 s to 10 s, +3000 from 4 s to 6 s on top of it
    SlotClocks clocks =
        new SlotClocks(
            List.of(
                forward(2, 4_000, 6_000, 3_000, 5_300), forward(2, 1_000, 10_000, 2_000, 2_300)));

    assertThat(clocks.highestMillis(2, 0, 500_000, false)).isEqualTo(300);
    assertThat(clocks.highestMillis(2, 2_000_000, 3_000_000, false)).isEqualTo(2_300);
    assertThat(clocks.highestMillis(2, 5_000_000, 5_000_000, false)).isEqualTo(5_300);
    // libfaketime keeps the old offset for up to 2 s after the restore at 6 s
    assertThat(clocks.highestMillis(2, 7_900_000, 9_000_000, false)).isEqualTo(5_300);
    assertThat(clocks.highestMillis(2, 8_100_000, 9_000_000, false)).isEqualTo(2_300);
    assertThat(clocks.highestMillis(2, 12_100_000, 20_000_000, false)).isEqualTo(300);
  }

  @Test
  void highest_restartWithTheClockBackThenAForwardStep_composeFromTheReplacementsOffset() {
    SlotClocks clocks =
        new SlotClocks(
            List.of(
                new FaultLog.Applied(
                    FaultKind.RESTART_CLOCK_BACK,
                    1,
                    0,
                    9_000_000,
                    "1",
                    6_000,
                    "replacement started at offset -5500ms"),
                forward(1, 3_000, 5_000, 7_000, 1_500)));

    assertThat(clocks.highestMillis(1, -900_000, -100_000, false)).isEqualTo(500);
    assertThat(clocks.highestMillis(1, 2_100_000, 2_900_000, false)).isEqualTo(-5_500);
    assertThat(clocks.highestMillis(1, 3_500_000, 3_500_000, false)).isEqualTo(1_500);
    assertThat(clocks.highestMillis(1, 7_100_000, 8_000_000, false)).isEqualTo(-5_500);
    assertThat(clocks.highestMillis(1, 11_100_000, 12_000_000, false)).isEqualTo(500);
  }

  @Test
  void highest_aSlotNoClockFaultMoved_isZero() {
    assertThat(
            new SlotClocks(List.of(forward(2, 1_000, 2_000, 5_000, 5_000)))
                .highestMillis(3, 0, 3_000_000, false))
        .isZero();
  }

  // The default time source does not follow a step back: from 6000 ms ahead at 10 s it slews back
  // at 0.9, 0.1 s a second, and meets the wall clock (300 ms ahead) 57 s later.
  @Test
  void highest_aSlotWhoseSourceSlews_staysAheadAfterTheStepIsTakenBack() {
    SlotClocks clocks = new SlotClocks(List.of(forward(2, 4_000, 10_000, 5_700, 6_000)));

    assertThat(clocks.highestMillis(2, 20_000_000, 30_000_000, true)).isEqualTo(5_000);
    assertThat(clocks.highestMillis(2, 20_000_000, 30_000_000, false)).isEqualTo(300);
    assertThat(clocks.highestMillis(2, 70_000_000, 80_000_000, true)).isEqualTo(300);
  }
}
