package io.snowid.jdbc;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.Snowflake;
import io.snowid.lease.RegistryUnavailableException;
import io.snowid.node.NodeIdUnavailableException;
import org.junit.jupiter.api.Test;

/** Starting while PostgreSQL does not answer yet; a missing database fails at once. */
class PostgresConnectWaitTest extends DatabaseConnectWaitContract {
  @Override
  PrivateDatabase create() throws Exception {
    return PrivatePostgres.create();
  }

  @Override
  protected String uriAt(String host, int port, String options) {
    return "jdbc:postgresql://" + host + ":" + port + "/test?user=postgres&" + options;
  }

  @Test
  void build_missingDatabase_failsAtOnceWithoutWaiting() {
    assertThatThrownBy(
            () ->
                Snowflake.builder()
                    .nodeSource(
                        "jdbc:postgresql://127.0.0.1:5432/no_such_database?user=postgres"
                            + "&connectWait=10m")
                    .build())
        .isInstanceOf(NodeIdUnavailableException.class)
        .isNotInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("no_such_database");
  }
}
