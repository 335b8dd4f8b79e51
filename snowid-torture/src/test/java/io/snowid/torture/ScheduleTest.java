package io.snowid.torture;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScheduleTest {
  private static final List<FaultKind> ALL = List.of(FaultKind.values());

  @Test
  void plan_sameSeed_sameSchedule() {
    assertThat(Schedule.plan(7, ALL, 600, 8, 4, 5000))
        .isEqualTo(Schedule.plan(7, ALL, 600, 8, 4, 5000))
        .isNotEqualTo(Schedule.plan(8, ALL, 600, 8, 4, 5000));
  }

  /** The seed of TortureShortRunTest makes a schedule with both of its kinds. */
  @Test
  void plan_shortRunSeed_killsAndPauses() {
    assertThat(Schedule.plan(20261123L, List.of(FaultKind.KILL, FaultKind.PAUSE), 25, 4, 0, 2000))
        .extracting(Fault::kind)
        .contains(FaultKind.KILL, FaultKind.PAUSE);
  }

  @Test
  void plan_tenMinutes_everyKindOnceAtLeastAndNoOverlapOnATarget() {
    List<Fault> plan = Schedule.plan(11, ALL, 600, 8, 4, 5000);

    assertThat(plan).extracting(Fault::kind).containsAll(ALL);
    Map<String, Long> busyUntil = new HashMap<>();
    for (Fault f : plan) {
      String target = f.kind().onRegistry() ? "r" : (f.kind().onHost() ? "h" : "s") + f.target();
      assertThat(f.atMillis()).isGreaterThanOrEqualTo(busyUntil.getOrDefault(target, 0L));
      busyUntil.put(target, f.atMillis() + f.durationMillis());
      assertThat(f.atMillis() + f.durationMillis()).isLessThanOrEqualTo(600_000 - 3_000);
    }
  }

  @Test
  void plan_everyKind_beginsWithOneOfEachKindInTheOrderGiven() {
    List<FaultKind> kinds =
        List.of(FaultKind.REGISTRY_RESTART, FaultKind.CLOCK_FORWARD, FaultKind.KILL);

    List<Fault> plan = Schedule.plan(20261123L, kinds, 25, 4, 0, 2000, true);

    assertThat(plan).extracting(Fault::kind).startsWith(kinds.toArray(FaultKind[]::new));
    assertThat(Schedule.plan(20261123L, kinds, 25, 4, 0, 2000, false))
        .isEqualTo(Schedule.plan(20261123L, kinds, 25, 4, 0, 2000));
  }
}
