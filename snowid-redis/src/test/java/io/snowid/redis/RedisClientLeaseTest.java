package io.snowid.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import io.snowid.Snowflake;
import io.snowid.TimeSource;
import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseCoordinators;
import io.snowid.lease.LeaseOptions;
import io.snowid.node.NodeIdUnavailableException;
import io.snowid.node.NodeLease;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@link RedisLeaseProvider#open(RedisClient, String)}: what it does with the caller's client. */
@Tag("integration")
class RedisClientLeaseTest {
  private final String prefix = TestRedis.uniquePrefix();
  private RedisClient client;

  @BeforeEach
  void openClient() {
    client = RedisClient.create(TestRedis.shared().uri());
  }

  @AfterEach
  void cleanUp() {
    TestRedis.shared().deletePrefix("redis://x?prefix=" + prefix);
    client.shutdown();
  }

  @Test
  void generator_onTheApplicationsClient_leasesUnderThePrefixAndLeavesTheClientOpen() {
    LeaseOptions options =
        LeaseOptions.parse(
            "redis-connection?namespace=orders&ttl=1s&maxTtl=1s&maxSkew=1s",
            new RedisLeaseProvider().defaultTtl());
    try (LeaseCoordinator coordinator = RedisLeaseProvider.open(client, "prefix=" + prefix);
        NodeLease lease =
            LeaseCoordinators.lease(
                coordinator, options, Layout.twitter(), Map.of(), TimeSource.monotonic());
        Snowflake ids = Snowflake.builder().lease(lease).build()) {
      long id = ids.nextId(); // a new prefix: maxTtl + 2 maxSkew + 1 s = 4 s after the start

      assertThat(ids.nodeStatus().held()).isTrue();
      assertThat(Layout.twitter().decode(id).fields()).isEqualTo(ids.node());
      assertThat(TestRedis.shared().keys("redis://x?prefix=" + prefix))
          .anySatisfy(k -> assertThat(k).startsWith("{" + prefix + "}:orders.").endsWith(":ids"));
      assertThat(coordinator.describe()).contains("application's connection").contains(prefix);
    }
    // the coordinator closed its own connection only
    try (StatefulRedisConnection<String, String> c = client.connect()) {
      assertThat(c.sync().ping()).isEqualTo("PONG");
    }
  }

  @Test
  void open_unknownOrBadOption_failsNamingIt() {
    assertThatThrownBy(() -> RedisLeaseProvider.open(client, "timeout=5s"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("timeout")
        .hasMessageContaining("prefix=NAME&wait=0..16");
    assertThatThrownBy(() -> RedisLeaseProvider.open(client, "wait=99"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("0..16");
    assertThatThrownBy(() -> RedisLeaseProvider.open(null, ""))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("RedisClient");
  }

  @Test
  void open_redisOutOfReach_failsAsUnavailable() {
    RedisClient nowhere = RedisClient.create("redis://127.0.0.1:1?timeout=1s");
    try {
      assertThatThrownBy(() -> RedisLeaseProvider.open(nowhere, ""))
          .isInstanceOf(NodeIdUnavailableException.class)
          .hasMessageContaining("cannot be reached");
    } finally {
      nowhere.shutdown();
    }
  }
}
