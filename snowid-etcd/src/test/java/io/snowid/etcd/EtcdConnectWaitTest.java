package io.snowid.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.Snowflake;
import io.snowid.lease.RegistryUnavailableException;
import io.snowid.node.NodeIdUnavailableException;
import io.snowid.testkit.ConnectWaitContract;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Starting while etcd does not answer yet ({@link ConnectWaitContract}, on a private one-member
 * cluster); a refused login fails at once, never shown.
 */
class EtcdConnectWaitTest extends ConnectWaitContract {
  @Override
  protected PrivateRegistry startPrivate(Path dir) throws Exception {
    TestEtcd etcd = TestEtcd.startPrivate(dir);
    return new PrivateRegistry() {
      @Override
      public int port() {
        return etcd.port();
      }

      @Override
      public void stop() throws Exception {
        etcd.stop();
      }

      @Override
      public void start() throws Exception {
        etcd.start();
      }

      @Override
      public void close() throws Exception {
        etcd.close();
      }
    };
  }

  @Override
  protected String uri(PrivateRegistry registry, String options) {
    return uriAt("127.0.0.1", registry.port(), "prefix=" + TestEtcd.uniquePrefix() + "&" + options);
  }

  @Override
  protected String uriAt(String host, int port, String options) {
    return "etcd://" + host + ":" + port + "?" + options;
  }

  @Test
  void build_wrongPassword_failsAtOnceWithoutWaitingOrShowingIt() throws Exception {
    try (TestEtcd etcd = TestEtcd.startPrivate(dir)) {
      etcd.enableAuth("root", "right-secret");
      String uri =
          "etcd://root:wrong-secret@127.0.0.1:" + etcd.port() + "?connectWait=10m&" + terms();

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
      String uri =
          "etcd://root:right-secret@127.0.0.1:" + etcd.port() + "?connectWait=60s&" + terms();

      try (Snowflake gen = Snowflake.builder().nodeSource(uri).build()) {
        assertThat(gen.nextId()).isPositive();
        assertThat(gen.nodeStatus().toString()).doesNotContain("right-secret");
      }
    }
  }
}
