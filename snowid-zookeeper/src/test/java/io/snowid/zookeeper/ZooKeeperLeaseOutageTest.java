package io.snowid.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.Layout;
import io.snowid.testkit.HolderJvm;
import io.snowid.testkit.RegistryOutage;
import io.snowid.testkit.StartDuringOutage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ZooKeeper going away under running holders, on a private server that the tests stop (SIGKILL) and
 * start again; and a holder paused (SIGSTOP) past its session. Holders stop issuing before their
 * sessions could expire, resume once the server is back, and no ID appears twice.
 */
@Tag("integration")
class ZooKeeperLeaseOutageTest {
  private static final Layout LAYOUT = Layout.twitter(); // HolderMain's layout
  private static final long TTL = 4_000;

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

  /**
   * {@link RegistryOutage}: a private server stopped and started under three holders, down past
   * every session (the ensemble may hand the ids out again).
   */
  @Test
  void nextId_serverDownAndBack_holdersFenceBeforeExpiryAndResumeWithoutDuplicates()
      throws Exception {
    PrivateZooKeeper zk = open(PrivateZooKeeper.start(dir.resolve("zk")));
    TestZooKeeper.putInService(zk.connect(), "/outage");
    RegistryOutage.check(
        "zookeeper://" + zk.connect() + "/outage?namespace=outage&ttl=4s&maxTtl=4s&maxSkew=1s",
        new StartDuringOutage.Registry() {
          @Override
          public void stop() {
            zk.stop();
          }

          @Override
          public void start() {
            zk.start();
          }
        },
        dir,
        Duration.ofMillis(TTL),
        Duration.ofMillis(TTL),
        fenced -> {});
  }

  /**
   * A holder paused (SIGSTOP) past its session: the ensemble expires the session and deletes its
   * ephemeral node, a second process takes the one id of the namespace, and the first, continued,
   * issues nothing more under it; the second starts after everything the first issued.
   */
  @Test
  void nextId_holderPausedPastItsSession_nextHolderTakesTheIdAndTheFirstIssuesNoMore()
      throws Exception {
    String root = TestZooKeeper.uniqueRoot();
    TestZooKeeper.putInService(TestZooKeeper.SHARED, root);
    try {
      String uri = TestZooKeeper.uri(root) + "?namespace=paused&ttl=4s&maxTtl=4s&maxSkew=1s";
      Map<String, String> oneId = Map.of("SNOWID_DATACENTER_ID", "1", "SNOWID_WORKER_ID", "3");
      HolderJvm first = open(HolderJvm.start(uri, dir, "first", oneId));
      first.await("ready", 0, Duration.ofMinutes(2));
      Thread.sleep(500);
      ProcessHandle child = childWriting(dir.resolve("first.ids"));

      signal("STOP", child);
      long paused = System.currentTimeMillis();
      Thread.sleep(TTL + 3_000); // its session (4 s granted) expires meanwhile
      HolderJvm second = open(HolderJvm.start(uri, dir, "second", oneId));
      second.await("ready", 0, Duration.ofMinutes(2));
      signal("CONT", child);
      Thread.sleep(2_000);

      first.close(); // killed while the second holds the id (a release would free it for the first)
      second.stop();
      long[] a = Arrays.stream(first.ids()).filter(id -> id >= 0).toArray();
      long[] b = Arrays.stream(second.ids()).filter(id -> id >= 0).toArray();
      assertThat(LAYOUT.decode(a[0]).fields()).isEqualTo(LAYOUT.decode(b[0]).fields());
      assertThat(timeOf(a[a.length - 1]))
          .as("the paused holder issued nothing after its lease's deadline")
          .isLessThan(paused + TTL);
      assertThat(b[0]).isGreaterThan(a[a.length - 1]);
      long[] merged = LongStream.concat(LongStream.of(a), LongStream.of(b)).sorted().toArray();
      assertThat(merged).doesNotHaveDuplicates();
    } finally {
      TestZooKeeper.delete(TestZooKeeper.SHARED, root);
    }
  }

  /** The holder JVM that writes its IDs to {@code ids}, among this JVM's children. */
  private static ProcessHandle childWriting(Path ids) {
    return ProcessHandle.current()
        .descendants()
        .filter(p -> commandLine(p).contains(ids.toString()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no child writes " + ids));
  }

  /** Its whole command line (ProcessHandle.Info cuts long ones). */
  private static String commandLine(ProcessHandle p) {
    try {
      return new String(
          java.nio.file.Files.readAllBytes(Path.of("/proc", Long.toString(p.pid()), "cmdline")),
          java.nio.charset.StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      return "";
    }
  }

  private static void signal(String signal, ProcessHandle p) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).start();
    assertThat(kill.waitFor()).isZero();
  }
}
