package io.snowid.torture;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness end to end, briefly, in the build (its integration tier, -Pit): four worker JVMs per
 * coordinator (each with a private registry: a lease directory, redis-server, PostgreSQL, MariaDB,
 * ZooKeeper, etcd), one of each configuration of the ID space, two lease times, for 25 s under one
 * of each fault kind first (--every-kind) — on a server a restart of the registry, then a wall
 * clock stepped forward and back (libfaketime), a SIGKILL with replacement, a SIGSTOP past the
 * lease, on a server a rollback of the registry to an older state — every ID checked, and each
 * kind's recovery reported against its availability target (not a gate: this machine's timing is
 * too noisy). The long runs with every fault kind are bench/torture.sh's (RELIABILITY.md).
 */
@Tag("integration")
class TortureShortRunTest {
  /** The schedule's seed; -Dsnowid.seed=N replays another. */
  private static final long SEED = Long.getLong("snowid.seed", 20261123L);

  @TempDir Path dir;

  private void shortRun(String coordinator) throws Exception {
    System.out.println("TortureShortRunTest " + coordinator + " seed " + SEED);
    Options options =
        Options.parse(
            "--coordinator",
            coordinator,
            "--seconds",
            "25",
            "--workers",
            "4",
            "--hosts",
            "0",
            "--ttl",
            "2000",
            "--faults",
            coordinator.equals("file:")
                ? "clock-forward,kill,pause"
                : "registry-restart,clock-forward,kill,pause,registry-rollback",
            "--every-kind",
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
    // four slots: every configuration of the ID space once, all under one namespace key
    assertThat(report)
        .contains(
            "namespace keys of the holds: 1\n",
            "worker=7, leased (ttl=2000ms",
            "leased (ttl=800ms",
            "SNOWID_DATACENTER_ID=",
            "fields=worker,datacenter");
    assertThat(FaultLog.load(dir.resolve("faults.log")))
        .as("faults applied")
        .extracting(FaultLog.Applied::kind)
        .contains(FaultKind.KILL, FaultKind.PAUSE, FaultKind.CLOCK_FORWARD)
        .containsAll(
            coordinator.equals("file:")
                ? List.<FaultKind>of()
                : List.of(FaultKind.REGISTRY_RESTART, FaultKind.REGISTRY_ROLLBACK));
    // availability is reported against each kind's target, never a gate on this machine
    assertThat(report).contains("after healing", "target", "availability: ");
  }

  @Test
  void run_fileCoordinatorUnderKillsAndPauses_noViolations() throws Exception {
    shortRun("file:");
  }

  @Test
  void run_redisCoordinatorUnderKillsAndPauses_noViolations() throws Exception {
    shortRun("redis://");
  }

  @Test
  void run_postgresqlCoordinatorUnderKillsAndPauses_noViolations() throws Exception {
    shortRun("jdbc:postgresql://");
  }

  @Test
  void run_mariadbCoordinatorUnderKillsAndPauses_noViolations() throws Exception {
    shortRun("jdbc:mariadb://");
  }

  @Test
  void run_zookeeperCoordinatorUnderKillsAndPauses_noViolations() throws Exception {
    shortRun("zookeeper://");
  }

  @Test
  void run_etcdCoordinatorUnderKillsAndPauses_noViolations() throws Exception {
    shortRun("etcd://");
  }
}
