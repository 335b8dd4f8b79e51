package io.snowid.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.Snowflake;
import io.snowid.lease.RegistryUnavailableException;
import io.snowid.node.NodeIdUnavailableException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Starting while etcd does not answer yet: a lease retries for {@code connectWait} and starts once
 * the member answers; what waiting cannot fix (an unknown host, a refused login) fails at once.
 */
@Tag("integration")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EtcdConnectWaitTest {
  @TempDir Path dir;

  /** Short lease bounds: the fresh prefix's start wait (maxTtl + maxSkew + 1s) stays short. */
  private static final String TERMS = "&ttl=1s&maxTtl=1s&maxSkew=1s";

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Test
  void build_duringAFiveSecondOutage_issuesOnceEtcdAnswers_withoutDuplicates() throws Exception {
    try (TestEtcd etcd = TestEtcd.startPrivate(dir)) {
      etcd.stop(); // its port is known, nothing listens on it
      String uri = etcd.uri() + "?prefix=" + TestEtcd.uniquePrefix() + "&connectWait=60s" + TERMS;
      CompletableFuture<Snowflake> building =
          CompletableFuture.supplyAsync(() -> Snowflake.builder().nodeSource(uri).build());
      Thread.sleep(5_000); // the outage: refused attempts
      assertThat(building).as("still waiting for etcd").isNotDone();

      etcd.start();

      try (Snowflake gen = building.get(60, TimeUnit.SECONDS)) {
        Set<Long> ids = new HashSet<>();
        for (int i = 0; i < 100_000; i++) {
          assertThat(ids.add(gen.nextId())).isTrue();
        }
        assertThat(gen.nodeStatus().source()).contains(etcd.uri());
      }
    }
  }

  @Test
  void build_nothingListensAndConnectWaitZero_failsAtOnceAsUnavailable() throws Exception {
    int port = freePort();

    assertThatThrownBy(
            () ->
                Snowflake.builder()
                    .nodeSource("etcd://127.0.0.1:" + port + "?connectWait=0s")
                    .build())
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("etcd://127.0.0.1:" + port)
        .hasMessageNotContaining("connectWait");
  }

  @Test
  void build_nothingListensPastConnectWait_failsNamingConnectWait() throws Exception {
    int port = freePort();

    assertThatThrownBy(
            () ->
                Snowflake.builder()
                    .nodeSource("etcd://127.0.0.1:" + port + "?connectWait=1s")
                    .build())
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("no answer within connectWait 1s")
        .hasMessageContaining("raise it with connectWait=");
  }

  @Test
  void build_unknownHost_failsAtOnceWithoutWaiting() {
    assertThatThrownBy(
            () ->
                Snowflake.builder()
                    .nodeSource("etcd://no-such-host.invalid:2379?connectWait=10m")
                    .build())
        .isInstanceOf(NodeIdUnavailableException.class)
        .isNotInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("no-such-host.invalid");
  }

  @Test
  void build_wrongPassword_failsAtOnceWithoutWaitingOrShowingIt() throws Exception {
    try (TestEtcd etcd = TestEtcd.startPrivate(dir)) {
      etcd.enableAuth("root", "right-secret");
      String uri = "etcd://root:wrong-secret@127.0.0.1:" + etcd.port() + "?connectWait=10m" + TERMS;

      assertThatThrownBy(() -> Snowflake.builder().nodeSource(uri).build())
          .isInstanceOf(NodeIdUnavailableException.class)
          .isNotInstanceOf(RegistryUnavailableException.class)
          .hasMessageNotContaining("wrong-secret");
    }
  }

  @Test
  void build_rightPassword_leases() throws Exception {
    try (TestEtcd etcd = TestEtcd.startPrivate(dir)) {
      etcd.enableAuth("root", "right-secret");
      String uri = "etcd://root:right-secret@127.0.0.1:" + etcd.port() + "?connectWait=5s" + TERMS;

      try (Snowflake gen = Snowflake.builder().nodeSource(uri).build()) {
        assertThat(gen.nextId()).isPositive();
        assertThat(gen.nodeStatus().toString()).doesNotContain("right-secret");
      }
    }
  }
}
