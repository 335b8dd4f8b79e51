package io.snowid.zookeeper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZKUtil;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * The shared ZooKeeper of the integration tier (127.0.0.1:2181, Debian's zookeeperd, 3.8), reached
 * with a plain ZooKeeper client to arrange and inspect nodes as an operator or a fault would. Every
 * test class works under a chroot of its own, deleted afterwards.
 */
final class TestZooKeeper {
  static final String SHARED = "127.0.0.1:2181";

  private TestZooKeeper() {}

  /** A chroot nobody else uses: {@code /snowid-test/<random>}. */
  static String uniqueRoot() {
    return "/snowid-test/" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** The lease URI of a chroot on the shared server. */
  static String uri(String root) {
    return "zookeeper://" + SHARED + root;
  }

  /** A plain client of {@code connect}, connected. */
  static ZooKeeper client(String connect) {
    CountDownLatch connected = new CountDownLatch(1);
    try {
      ZooKeeper zk =
          new ZooKeeper(
              connect,
              10_000,
              e -> {
                if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                  connected.countDown();
                }
              });
      if (!connected.await(10, TimeUnit.SECONDS)) {
        zk.close();
        throw new IllegalStateException("no ZooKeeper at " + connect);
      }
      return zk;
    } catch (IOException | InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Puts a chroot in service as a registry in production is: its registry node and a recent write,
   * so that the first holder does not wait out a loss (a new chroot looks like one that lost its
   * data, which the registry-loss tests cover).
   */
  static void putInService(String connect, String root) {
    try (ZooKeeper zk = client(connect)) {
      create(zk, root, "");
      create(zk, root + "/registry", "- 30000");
      create(zk, root + "/written", "");
      zk.setData(root + "/written", new byte[0], -1);
    } catch (KeeperException | InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  static void create(ZooKeeper zk, String path, String data)
      throws KeeperException, InterruptedException {
    int slash = path.lastIndexOf('/');
    if (slash > 0 && zk.exists(path.substring(0, slash), false) == null) {
      create(zk, path.substring(0, slash), "");
    }
    try {
      zk.create(
          path,
          data.getBytes(StandardCharsets.UTF_8),
          ZooDefs.Ids.OPEN_ACL_UNSAFE,
          CreateMode.PERSISTENT);
    } catch (KeeperException.NodeExistsException e) {
      // there already
    }
  }

  /** Deletes a chroot and everything under it. */
  static void delete(String connect, String path) {
    try (ZooKeeper zk = client(connect)) {
      if (zk.exists(path, false) != null) {
        ZKUtil.deleteRecursive(zk, path);
      }
    } catch (KeeperException | InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }
}
