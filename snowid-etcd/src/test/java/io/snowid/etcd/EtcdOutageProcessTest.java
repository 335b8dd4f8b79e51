package io.snowid.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.Layout;
import io.snowid.testkit.HolderJvm;
import io.snowid.testkit.RegistryOutage;
import io.snowid.testkit.StartDuringOutage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Holders in child JVMs while a private etcd stops and starts, and while a holder is stopped
 * (SIGSTOP) past its lease: they fence before their leases end, resume, and never issue an ID
 * twice. The shared etcd is never touched.
 */
@Tag("integration")
class EtcdOutageProcessTest {
  private static final Layout LAYOUT = Layout.twitter(); // HolderMain's layout

  @TempDir Path dir;
  private final List<AutoCloseable> opened = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (int i = opened.size() - 1; i >= 0; i--) {
      opened.get(i).close();
    }
  }

  private <T extends AutoCloseable> T open(T c) {
    opened.add(c);
    return c;
  }

  private static long timeOf(long id) {
    return LAYOUT.decode(id).timestampMillis();
  }

  /** {@link RegistryOutage}: etcd stopped and started under three holders. */
  @Test
  void nextId_etcdStoppedAndStarted_holdersFenceBeforeExpiryAndResumeWithoutDuplicates()
      throws Exception {
    TestEtcd etcd = open(TestEtcd.startPrivate(dir));
    etcd.putInService("snowid");
    RegistryOutage.check(
        etcd.uri() + "?namespace=outage&ttl=2s&maxTtl=2s&maxSkew=1s",
        registry(etcd),
        dir,
        Duration.ofSeconds(2),
        Duration.ZERO,
        fenced -> {});
  }

  private static StartDuringOutage.Registry registry(TestEtcd etcd) {
    return new StartDuringOutage.Registry() {
      @Override
      public void stop() throws Exception {
        etcd.stop();
      }

      @Override
      public void start() throws Exception {
        etcd.start();
      }
    };
  }

  /**
   * A holder stopped (SIGSTOP) past its lease: etcd ends its lease, a newcomer takes its id and
   * starts after everything it issued; continued (SIGCONT), the old holder finds itself fenced,
   * leases another id, and no ID appears twice.
   */
  @Test
  void nextId_holderStoppedPastItsLease_newcomerTakesItsIdAfterItsLastIdAndNoDuplicates()
      throws Exception {
    TestEtcd etcd = open(TestEtcd.startPrivate(dir));
    String uri = etcd.uri() + "?namespace=paused&ttl=2s&maxTtl=2s&maxSkew=1s";
    etcd.putInService("snowid");
    HolderJvm old = open(HolderJvm.start(uri, dir, "old"));
    old.await("ready", 0, Duration.ofMinutes(2));
    Thread.sleep(500);
    long pid = pidOf(dir.resolve("old.ids"));

    signal("STOP", pid);
    Thread.sleep(2_000 + 3_000); // its etcd lease (2 s) ends; etcd checks expiries every 500 ms
    HolderJvm newcomer = open(HolderJvm.start(uri, dir, "newcomer"));
    newcomer.await("ready", 0, Duration.ofMinutes(2));
    signal("CONT", pid);
    long continued = System.currentTimeMillis();
    awaitStderr(old, "expired and taken by another holder");
    Thread.sleep(1_000); // both issue, on different ids

    old.stop();
    newcomer.stop();
    long lastOfOld =
        Arrays.stream(old.ids()).filter(id -> id >= 0).map(id -> timeOf(id)).max().orElse(0);
    assertThat(lastOfOld)
        .as("the old holder issued again after it was continued")
        .isGreaterThan(continued);
    old.assertNewcomerStartedAfter(newcomer, 0);
    long[] merged =
        LongStream.concat(Arrays.stream(old.ids()), Arrays.stream(newcomer.ids()))
            .filter(id -> id >= 0)
            .sorted()
            .toArray();
    assertThat(merged).doesNotHaveDuplicates();
  }

  /** The child JVM whose arguments name its ids file (pgrep -f: finds, never signals). */
  private static long pidOf(Path idsFile) throws Exception {
    Process pgrep = new ProcessBuilder("pgrep", "-f", "--", idsFile.toString()).start();
    String out = new String(pgrep.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertThat(pgrep.waitFor()).as("a child JVM writes " + idsFile).isZero();
    return Long.parseLong(out.split("\\s+")[0]);
  }

  private static void awaitStderr(HolderJvm h, String words) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
    while (!h.stderr().contains(words)) {
      assertThat(System.nanoTime()).as("'" + words + "' in " + h.stderr()).isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  private static void signal(String signal, long pid) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start();
    assertThat(kill.waitFor()).isZero();
  }
}
