package io.snowid.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.Snowflake;
import io.snowid.lease.RegistryUnavailableException;
import io.snowid.node.NodeIdUnavailableException;
import io.snowid.testkit.StartDuringOutage;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Starting while ZooKeeper does not answer yet: a lease retries for {@code connectWait} and starts
 * once a server answers; what waiting cannot fix (an unknown host, refused credentials) fails at
 * once. Servers that stop are private ones.
 */
@Tag("integration")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ZooKeeperConnectWaitTest {
  @TempDir Path dir;

  /** Short lease bounds: the fresh chroot's start wait (maxTtl + maxSkew + 1s) stays short. */
  private static final String TERMS = "&ttl=2s&maxTtl=2s&maxSkew=1s";

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Test
  void build_zooKeeperStartsWithinConnectWait_issuesOnceItAnswers() throws Exception {
    PrivateZooKeeper zk = PrivateZooKeeper.start(dir.resolve("late"));
    try (zk) {
      zk.stop(); // its port is known, nothing listens on it
      String uri = "zookeeper://" + zk.connect() + "/late?connectWait=60s" + TERMS;
      CompletableFuture<Snowflake> building =
          CompletableFuture.supplyAsync(() -> Snowflake.builder().nodeSource(uri).build());
      Thread.sleep(1_500); // a few refused attempts
      assertThat(building).as("still waiting for ZooKeeper").isNotDone();

      zk.start();

      try (Snowflake gen = building.get(60, TimeUnit.SECONDS)) {
        assertThat(gen.nodeStatus().source()).contains(zk.connect());
        assertThat(gen.awaitReady(Duration.ofSeconds(30))).isTrue();
        assertThat(gen.nextId()).isPositive();
      }
    }
  }

  /**
   * ZooKeeper down for 5 s under two running holders while a third process starts: it waits, takes
   * its lease once ZooKeeper answers, and no ID is issued twice.
   */
  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void start_duringFiveSecondOutageBesideRunningHolders_issuesOnceZooKeeperAnswers()
      throws Exception {
    PrivateZooKeeper zk = PrivateZooKeeper.start(dir.resolve("outage"));
    try (zk) {
      TestZooKeeper.putInService(zk.connect(), "/outage");
      String uri =
          "zookeeper://" + zk.connect() + "/outage?connectWait=60s&ttl=4s&maxTtl=4s&maxSkew=1s";
      StartDuringOutage.check(
          uri,
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
          Duration.ofSeconds(5));
    }
  }

  @Test
  void build_nothingListensAndConnectWaitZero_failsAtOnceAsUnavailable() throws Exception {
    int port = freePort();

    assertThatThrownBy(
            () ->
                Snowflake.builder()
                    .nodeSource("zookeeper://127.0.0.1:" + port + "?connectWait=0s")
                    .build())
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("zookeeper://127.0.0.1:" + port + " did not answer")
        .hasMessageNotContaining("connectWait");
  }

  @Test
  void build_nothingListensPastConnectWait_failsNamingConnectWait() throws Exception {
    int port = freePort();

    assertThatThrownBy(
            () ->
                Snowflake.builder()
                    .nodeSource("zookeeper://127.0.0.1:" + port + "?connectWait=1s")
                    .build())
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("did not answer")
        .hasMessageContaining("no answer within connectWait 1s")
        .hasMessageContaining("raise it with connectWait=");
  }

  @Test
  void build_unknownHost_failsAtOnceWithoutWaiting() {
    assertThatThrownBy(
            () ->
                Snowflake.builder()
                    .nodeSource("zookeeper://no-such-host.invalid:2181?connectWait=10m")
                    .build())
        .isInstanceOf(NodeIdUnavailableException.class)
        .isNotInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("no-such-host.invalid");
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
              + "?connectWait=10m"
              + TERMS;

      assertThatThrownBy(() -> Snowflake.builder().nodeSource(uri).build())
          .isInstanceOf(NodeIdUnavailableException.class)
          .isNotInstanceOf(RegistryUnavailableException.class)
          .hasMessageContaining("refused")
          .hasMessageNotContaining("wrong-secret");

      String right =
          "zookeeper://app:right-secret@" + TestZooKeeper.SHARED + root + "?" + TERMS.substring(1);
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
