package io.snowid.redis;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.Snowflake;
import io.snowid.lease.RegistryUnavailableException;
import io.snowid.node.NodeIdUnavailableException;
import io.snowid.testkit.ConnectWaitContract;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Starting while Redis does not answer yet ({@link ConnectWaitContract}, on a private {@code
 * redis-server} that keeps nothing across a restart); a refused password fails at once, never
 * shown.
 */
class RedisConnectWaitTest extends ConnectWaitContract {
  @Override
  protected PrivateRegistry startPrivate(Path dir) throws Exception {
    TestRedis redis = TestRedis.startPrivate(dir);
    return new PrivateRegistry() {
      @Override
      public int port() {
        return redis.port();
      }

      @Override
      public void stop() throws Exception {
        redis.shutdownNosave();
      }

      @Override
      public void start() throws Exception {
        redis.start();
      }

      @Override
      public void close() {
        redis.close();
      }
    };
  }

  @Override
  protected String uri(PrivateRegistry registry, String options) {
    return "redis://127.0.0.1:"
        + registry.port()
        + "?prefix="
        + TestRedis.uniquePrefix()
        + "&"
        + options;
  }

  @Override
  protected String uriAt(String host, int port, String options) {
    return "redis://" + host + ":" + port + "?" + options;
  }

  @Test
  void build_wrongPassword_failsAtOnceWithoutWaitingOrShowingIt() throws Exception {
    try (TestRedis redis = TestRedis.startPrivate(dir.resolve("auth"))) {
      redis.cli("config", "set", "requirepass", "right-secret");
      String uri =
          "redis://:wrong-secret@127.0.0.1:" + redis.port() + "?connectWait=10m&" + terms();

      assertThatThrownBy(() -> Snowflake.builder().nodeSource(uri).build())
          .isInstanceOf(NodeIdUnavailableException.class)
          .isNotInstanceOf(RegistryUnavailableException.class)
          .hasMessageNotContaining("wrong-secret");
    }
  }
}
