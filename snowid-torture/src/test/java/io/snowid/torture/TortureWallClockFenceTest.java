package io.snowid.torture;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RELIABILITY.md, finding 2, with real processes: worker JVMs on the wall clock (slots 1-3: the
 * {@code wait}, {@code fail} and {@code clockback} policies; slot 0 is the default source) have
 * their clocks stepped back by libfaketime while their Redis registry is stopped hard and started
 * empty, so their renewals fail and their leases expire in Redis. A generator fenced by the times
 * its IDs carry only went on issuing after that expiry, for up to the step; the checker counts
 * every ID taken after the registry's expiry (beyond the one time unit in flight) as not held.
 */
class TortureWallClockFenceTest {
  /** The schedule's seed; -Dsnowid.seed=N replays another. */
  private static final long SEED = Long.getLong("snowid.seed", 20261126L);

  @TempDir Path dir;

  @Test
  void run_wallClockWorkersSteppedBackWhileTheRegistryIsDown_noIdAfterTheRegistrysExpiry()
      throws Exception {
    System.out.println("TortureWallClockFenceTest seed " + SEED);
    Options options =
        Options.parse(
            "--coordinator",
            "redis://",
            "--seconds",
            "30",
            "--workers",
            "4",
            "--hosts",
            "0",
            "--ttl",
            "1000",
            "--faults",
            "clock-back,registry-restart",
            "--budget",
            "32m",
            "--seed",
            Long.toString(SEED),
            "--dir",
            dir.toString());

    int code = Torture.run(options);

    String report = Files.readString(dir.resolve("report.txt"));
    assertThat(code).as(report).isZero();
    assertThat(report).contains("duplicates: 0", "order violations: 0", "not held: 0", "PASS");
    assertThat(FaultLog.load(dir.resolve("faults.log")))
        .as("faults applied")
        .extracting(FaultLog.Applied::kind)
        .contains(FaultKind.CLOCK_BACK, FaultKind.REGISTRY_RESTART);
  }
}
