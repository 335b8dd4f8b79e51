package io.snowid.lease;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Liveness is judged by the kernel's start ticks and boot id, not by ProcessHandle's start instant,
 * which adds the boot time and so moves with every wall-clock step: a JVM started after a step
 * would judge every older live holder dead and take its id.
 */
class HolderProcessTest {
  private static LeaseRecord of(String host, String boot, long pid, String ns, long ticks) {
    return new LeaseRecord(
        LeaseRecord.VERSION, "i", "t", host, boot, pid, ns, ticks, 1_000, 0, 0, 0, 0);
  }

  private static Process sleeper() throws IOException {
    return new ProcessBuilder("sleep", "60").start();
  }

  @Test
  void of_liveProcessOfThisHost_isAliveOnlyWithItsOwnStartTicks() throws Exception {
    Process p = sleeper();
    try {
      long ticks = HolderProcess.startTicks(p.pid());
      assertThat(ticks).isPositive();
      String host = HolderProcess.host();
      String boot = HolderProcess.bootId();
      String ns = HolderProcess.pidNamespace();

      assertThat(HolderProcess.of(of(host, boot, p.pid(), ns, ticks)))
          .isEqualTo(HolderProcess.Liveness.ALIVE);
      assertThat(HolderProcess.of(of(host, boot, p.pid(), ns, ticks + 1)))
          .as("the same pid, another process")
          .isEqualTo(HolderProcess.Liveness.DEAD);
      assertThat(HolderProcess.of(of(host, "another-boot", p.pid(), ns, ticks)))
          .as("a record of an earlier boot")
          .isEqualTo(HolderProcess.Liveness.DEAD);
      assertThat(HolderProcess.of(of("another-host", boot, p.pid(), ns, ticks)))
          .isEqualTo(HolderProcess.Liveness.UNKNOWN);
      assertThat(HolderProcess.of(of(host, boot, p.pid(), "pid:[1]", ticks)))
          .as("a pid of another PID namespace")
          .isEqualTo(HolderProcess.Liveness.UNKNOWN);
    } finally {
      p.destroyForcibly();
      assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void of_processThatExited_isDead() throws Exception {
    Process p = sleeper();
    long ticks = HolderProcess.startTicks(p.pid());
    p.destroyForcibly();
    assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();

    assertThat(
            HolderProcess.of(
                of(
                    HolderProcess.host(),
                    HolderProcess.bootId(),
                    p.pid(),
                    HolderProcess.pidNamespace(),
                    ticks)))
        .isEqualTo(HolderProcess.Liveness.DEAD);
  }

  @Test
  void startTicks_isTheKernelsFieldNotDerivedFromTheWallClock() throws Exception {
    String stat = Files.readString(Paths.get("/proc/self/stat"));
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    assertThat(HolderProcess.startTicks()).isEqualTo(Long.parseLong(fields[19]));
  }
}
