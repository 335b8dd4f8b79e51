package io.snowid.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.Snowflake;
import io.snowid.lease.RegistryUnavailableException;
import io.snowid.node.NodeIdUnavailableException;
import io.snowid.testkit.ConnectWaitContract;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.junit.jupiter.api.Test;

/**
 * Starting while ZooKeeper does not answer yet ({@link ConnectWaitContract}, on a private server,
 * its chroot put in service so that only the connection is waited for); refused credentials fail at
 * once, never shown.
 */
class ZooKeeperConnectWaitTest extends ConnectWaitContract {
  private static final String CHROOT = "/wait";

  @Override
  protected PrivateRegistry startPrivate(Path dir) {
    PrivateZooKeeper zk = PrivateZooKeeper.start(dir);
    TestZooKeeper.putInService(zk.connect(), CHROOT);
    return new PrivateRegistry() {
      @Override
      public int port() {
        return zk.port();
      }

      @Override
      public void stop() {
        zk.stop();
      }

      @Override
      public void start() {
        zk.start();
      }

      @Override
      public void close() {
        zk.close();
      }
    };
  }

  @Override
  protected String uri(PrivateRegistry registry, String options) {
    return "zookeeper://127.0.0.1:" + registry.port() + CHROOT + "?" + options;
  }

  @Override
  protected String uriAt(String host, int port, String options) {
    return "zookeeper://" + host + ":" + port + "?" + options;
  }

  /** The session timeout asked must be one the private server grants (2 to 20 ticks). */
  @Override
  protected String terms() {
    return "ttl=2s&maxTtl=2s&maxSkew=1s";
  }

  @Override
  protected String outageTerms() {
    return "ttl=4s&maxTtl=4s&maxSkew=1s";
  }

  /**
   * A chroot readable and writable by one digest user only: another password is refused at once,
   * and never shown.
   */
  @Test
  void build_wrongPassword_failsAtOnceWithoutWaitingOrShowingIt() throws Exception {
    String root = TestZooKeeper.uniqueRoot();
    try (ZooKeeper zk = TestZooKeeper.client(TestZooKeeper.SHARED)) {
      TestZooKeeper.create(zk, root.substring(0, root.lastIndexOf('/')), "");
      zk.create(
          root,
          new byte[0],
          new java.util.ArrayList<>(
              java.util.List.of(
                  new ACL(
                      ZooDefs.Perms.ALL,
                      new Id(
                          "digest",
                          DigestAuthenticationProvider.generateDigest("app:right-secret"))))),
          org.apache.zookeeper.CreateMode.PERSISTENT);
    }
    try {
      String uri =
          "zookeeper://app:wrong-secret@"
              + TestZooKeeper.SHARED
              + root
              + "?connectWait=10m&"
              + terms();

      assertThatThrownBy(() -> Snowflake.builder().nodeSource(uri).build())
          .isInstanceOf(NodeIdUnavailableException.class)
          .isNotInstanceOf(RegistryUnavailableException.class)
          .hasMessageContaining("refused")
          .hasMessageNotContaining("wrong-secret");

      String right = "zookeeper://app:right-secret@" + TestZooKeeper.SHARED + root + "?" + terms();
      try (Snowflake gen = Snowflake.builder().nodeSource(right).build()) {
        assertThat(gen.nodeStatus().source()).doesNotContain("right-secret");
        assertThat(gen.awaitReady(Duration.ofSeconds(30))).isTrue();
        assertThat(gen.nextId()).isPositive();
      }
    } finally {
      try (ZooKeeper zk = TestZooKeeper.client(TestZooKeeper.SHARED)) {
        zk.addAuthInfo(
            "digest", "app:right-secret".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        org.apache.zookeeper.ZKUtil.deleteRecursive(zk, root);
      }
    }
  }
}
