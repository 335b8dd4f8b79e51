package io.snowid.torture;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The private ZooKeeper of a run and its holds, with a plain ZooKeeper client as the holder: each
 * hold read from the transaction log covers the stretch the client saw its node exist, a restart
 * keeps what was acknowledged, and a rollback puts back the state of the snapshot.
 */
@Tag("integration")
class ZooKeeperRegistryTest {
  @TempDir Path dir;

  private static ZooKeeper connect(ZooKeeperRegistry registry) throws Exception {
    CountDownLatch connected = new CountDownLatch(1);
    ZooKeeper zk =
        new ZooKeeper(
            registry.endpoint().getHostString() + ":" + registry.endpoint().getPort(),
            30_000, // longer than a loaded machine's restart: no session expires in the test
            e -> {
              if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
              }
            });
    assertThat(connected.await(30, TimeUnit.SECONDS)).isTrue();
    return zk;
  }

  /** Retries across the connection loss of a restart, until the client is connected again. */
  private static <T> T retried(Callable<T> op) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      try {
        return op.call();
      } catch (KeeperException.ConnectionLossException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(100);
      }
    }
  }

  private static void create(ZooKeeper zk, String path, String data, CreateMode mode)
      throws Exception {
    zk.create(path, data.getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE, mode);
  }

  /** As snowid-zookeeper holds: the id's record (instance, token, mark), then the lease node. */
  private static void hold(ZooKeeper zk, long id, String instance, long highWater)
      throws Exception {
    String token = "t" + id + instance;
    String record = instance + " " + token + " " + highWater + " - 4000";
    if (zk.exists("/t/ns/space/ids/" + id, false) == null) {
      create(zk, "/t/ns/space/ids/" + id, record, CreateMode.PERSISTENT);
    } else {
      zk.setData("/t/ns/space/ids/" + id, record.getBytes(StandardCharsets.UTF_8), -1);
    }
    create(zk, "/t/ns/space/held/" + id, token, CreateMode.EPHEMERAL);
  }

  @Test
  void holds_coverWhatTheHolderSaw_acrossRestartAndRollback() throws Exception {
    Timeline timeline = new Timeline();
    timeline.sample();
    try (ZooKeeperRegistry registry =
        new ZooKeeperRegistry(
            dir, InetAddress.getLoopbackAddress(), "namespace=t", new Pids(dir.resolve("pids")))) {
      ZooKeeper a = connect(registry);
      for (String p :
          List.of("/t", "/t/ns", "/t/ns/space", "/t/ns/space/held", "/t/ns/space/ids")) {
        create(a, p, "", CreateMode.PERSISTENT);
      }
      // node 5: created, then deleted by its holder
      hold(a, 5, "w0-1", 5000);
      long held5 = Timeline.monoMicros();
      Thread.sleep(50);
      long stillHeld5 = Timeline.monoMicros();
      a.delete("/t/ns/space/held/5", -1);
      // node 6: held across a restart, then its session closed
      ZooKeeper b = connect(registry);
      hold(b, 6, "w1-1", 6000);
      long held6 = Timeline.monoMicros();
      registry.restart(0);
      assertThat(retried(() -> b.exists("/t/ns/space/held/6", false)))
          .as("kept by the restart")
          .isNotNull();
      long stillHeld6 = Timeline.monoMicros();
      retried(() -> b.exists("/t", false));
      b.close();
      // node 7: in the snapshot; node 8: created after it, gone with the rollback
      retried(() -> a.exists("/t", false));
      hold(a, 7, "w2-1", 7000);
      Registry.Snapshot snapshot = registry.snapshot();
      hold(a, 8, "w3-1", 8000);
      a.delete("/t/ns/space/held/7", -1);
      registry.rollback(snapshot);
      ZooKeeper c = connect(registry);
      assertThat(c.exists("/t/ns/space/held/7", false)).as("back with the rollback").isNotNull();
      assertThat(c.exists("/t/ns/space/held/8", false)).as("after the snapshot").isNull();
      c.close();
      a.close();
      timeline.sample();

      List<Hold> holds = registry.stopAndReadHolds(timeline);

      assertThat(holds)
          .anySatisfy(
              h -> {
                assertThat(h.instance()).isEqualTo("w0-1");
                assertThat(h.nodeKey()).isEqualTo(5);
                assertThat(h.namespace()).isEqualTo("space");
                assertThat(h.highWaterMillis()).isEqualTo(5000);
                assertThat(h.fromMicros()).isLessThanOrEqualTo(held5);
                assertThat(h.toMicros())
                    .isGreaterThanOrEqualTo(stillHeld5)
                    .isLessThan(Long.MAX_VALUE);
              });
      assertThat(holds)
          .anySatisfy(
              h -> {
                assertThat(h.instance()).isEqualTo("w1-1");
                assertThat(h.fromMicros()).isLessThanOrEqualTo(held6);
                assertThat(h.toMicros())
                    .isGreaterThanOrEqualTo(stillHeld6)
                    .isLessThan(Long.MAX_VALUE);
              });
      assertThat(holds).filteredOn(h -> h.instance().equals("w2-1")).hasSizeGreaterThanOrEqualTo(2);
      assertThat(holds).filteredOn(h -> h.instance().equals("w3-1")).hasSize(1);
      assertThat(registry.holdsSource()).contains("2 server lifetimes");
    }
  }
}
