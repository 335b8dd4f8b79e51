package io.snowid.jdbc;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.Snowflake;
import io.snowid.lease.RegistryUnavailableException;
import io.snowid.node.NodeIdUnavailableException;
import org.junit.jupiter.api.Test;

/** Starting while MariaDB does not answer yet; a refused login fails at once, never shown. */
class MariaDbConnectWaitTest extends DatabaseConnectWaitContract {
  @Override
  PrivateDatabase create() throws Exception {
    return PrivateMariaDb.create();
  }

  @Override
  protected String uriAt(String host, int port, String options) {
    return "jdbc:mariadb://" + host + ":" + port + "/test?user=root&" + options;
  }

  @Test
  void build_refusedLogin_failsAtOnceWithoutWaitingOrShowingThePassword() {
    assertThatThrownBy(
            () ->
                Snowflake.builder()
                    .nodeSource(
                        "jdbc:mariadb://127.0.0.1:3306/test?user=no_such_user"
                            + "&password=wrong-secret&connectWait=10m")
                    .build())
        .isInstanceOf(NodeIdUnavailableException.class)
        .isNotInstanceOf(RegistryUnavailableException.class)
        .hasMessageNotContaining("wrong-secret");
  }
}
