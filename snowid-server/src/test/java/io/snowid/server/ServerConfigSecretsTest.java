package io.snowid.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ServerConfigSecretsTest {
  @Test
  void toString_nodeSourceWithoutItsPassword() {
    String node =
        "jdbc:mariadb://address=(host=10.0.0.5)(port=3306)(user=app)(password=S3cr3t)/ids";

    assertThat(ServerConfig.defaults().withNode(node).toString())
        .contains("node=jdbc:mariadb://address=(host=10.0.0.5)(port=3306)(user=app)(password=***)")
        .doesNotContain("S3cr3t");
    assertThat(ServerConfig.defaults().withNode("redis://:S3/cr3t@10.0.0.5:6379").toString())
        .contains("node=redis://10.0.0.5:6379")
        .doesNotContain("S3")
        .doesNotContain("cr3t");
  }
}
