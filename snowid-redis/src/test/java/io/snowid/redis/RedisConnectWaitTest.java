package io.snowid.redis;

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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Starting while Redis does not answer yet: a lease retries for {@code connectWait} and starts once
 * the server answers; what waiting cannot fix (an unknown host, a refused password) fails at once.
 */
@Tag("integration")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RedisConnectWaitTest {
  @TempDir Path dir;

  /** Short lease bounds: the fresh namespace's start wait (maxTtl + maxSkew + 1s) stays short. */
  private static final String TERMS = "&ttl=1s&maxTtl=1s&maxSkew=1s";

  /** The outage test's terms: holders that fence within 2 s of the registry going away. */
  private static final String OUTAGE_TERMS = "&ttl=2s&maxTtl=2s&maxSkew=1s";

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Test
  void build_redisStartsWithinConnectWait_issuesOnceItAnswers() throws Exception {
    TestRedis redis = TestRedis.startPrivate(dir.resolve("late"));
    try (redis) {
      redis.shutdownNosave(); // its port is known, nothing listens on it
      String uri = redis.uri() + "?prefix=" + TestRedis.uniquePrefix() + "&connectWait=60s" + TERMS;
      CompletableFuture<Snowflake> building =
          CompletableFuture.supplyAsync(() -> Snowflake.builder().nodeSource(uri).build());
      Thread.sleep(1_500); // a few refused attempts
      assertThat(building).as("still waiting for Redis").isNotDone();

      redis.start();

      try (Snowflake gen = building.get(60, TimeUnit.SECONDS)) {
        assertThat(gen.nextId()).isPositive();
        assertThat(gen.nodeStatus().source()).contains(redis.uri());
      }
    }
  }

  /**
   * Redis down for 5 s under two running holders while a third process starts: it waits, takes its
   * lease once Redis answers (empty: this server keeps nothing), and no ID is issued twice.
   */
  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void start_duringFiveSecondOutageBesideRunningHolders_issuesOnceRedisAnswersWithoutDuplicates()
      throws Exception {
    TestRedis redis = TestRedis.startPrivate(dir.resolve("outage"));
    try (redis) {
      String uri =
          redis.uri() + "?prefix=" + TestRedis.uniquePrefix() + "&connectWait=60s" + OUTAGE_TERMS;
      StartDuringOutage.check(
          uri,
          new StartDuringOutage.Registry() {
            @Override
            public void stop() throws Exception {
              redis.shutdownNosave();
            }

            @Override
            public void start() throws Exception {
              redis.start();
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
                    .nodeSource("redis://127.0.0.1:" + port + "?connectWait=0s")
                    .build())
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("redis://127.0.0.1:" + port + " cannot be reached")
        .hasMessageNotContaining("connectWait");
  }

  @Test
  void build_nothingListensPastConnectWait_failsNamingConnectWait() throws Exception {
    int port = freePort();

    assertThatThrownBy(
            () ->
                Snowflake.builder()
                    .nodeSource("redis://127.0.0.1:" + port + "?connectWait=1s")
                    .build())
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("cannot be reached")
        .hasMessageContaining("no answer within connectWait 1s")
        .hasMessageContaining("raise it with connectWait=");
  }

  @Test
  void build_unknownHost_failsAtOnceWithoutWaiting() {
    assertThatThrownBy(
            () ->
                Snowflake.builder()
                    .nodeSource("redis://no-such-host.invalid:6379?connectWait=10m")
                    .build())
        .isInstanceOf(NodeIdUnavailableException.class)
        .isNotInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("no-such-host.invalid");
  }

  @Test
  void build_wrongPassword_failsAtOnceWithoutWaitingOrShowingIt() throws Exception {
    try (TestRedis redis = TestRedis.startPrivate(dir.resolve("auth"))) {
      redis.cli("config", "set", "requirepass", "right-secret");
      String uri = "redis://:wrong-secret@127.0.0.1:" + redis.port() + "?connectWait=10m" + TERMS;

      assertThatThrownBy(() -> Snowflake.builder().nodeSource(uri).build())
          .isInstanceOf(NodeIdUnavailableException.class)
          .isNotInstanceOf(RegistryUnavailableException.class)
          .hasMessageNotContaining("wrong-secret");
    }
  }

  @Test
  void connectWait_outOfRange_refusedNamingTheOption() {
    assertThatThrownBy(
            () -> Snowflake.builder().nodeSource("redis://127.0.0.1:6379?connectWait=11m").build())
        .hasMessageContaining("connectWait")
        .hasMessageContaining("10m");
  }
}
