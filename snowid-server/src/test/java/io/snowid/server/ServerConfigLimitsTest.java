package io.snowid.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.InvalidSettingException;
import java.time.Duration;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ServerConfigLimitsTest {
  @Test
  void defaults_limitsAsDocumented() {
    ServerConfig c = ServerConfig.defaults();

    assertThat(c.headerTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(c.idleTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(c.maxReservedAhead()).isEqualTo(Duration.ofMillis(250));
    assertThat(c.maxConnections()).isEqualTo(ServerConfig.defaultMaxConnections());
  }

  @Test
  void defaultMaxConnections_10000_orHalfTheOpenFileLimitIfLower() {
    assertThat(ServerConfig.defaultMaxConnections(1_048_576)).isEqualTo(10_000);
    assertThat(ServerConfig.defaultMaxConnections(20_000)).isEqualTo(10_000);
    assertThat(ServerConfig.defaultMaxConnections(1024)).isEqualTo(512);
    assertThat(ServerConfig.defaultMaxConnections(1)).isEqualTo(1);
    assertThat(ServerConfig.defaultMaxConnections(-1)).isEqualTo(10_000); // unknown
  }

  @Test
  void badLimits_areRefusedNamingTheSettingAndItsRange() {
    assertRefused(c -> c.withMaxConnections(0), "maxConnections", "1..1000000");
    assertRefused(c -> c.withMaxConnections(1_000_001), "maxConnections", "1..1000000");
    assertRefused(c -> c.withHeaderTimeout(Duration.ZERO), "headerTimeout", "1ms..10m");
    assertRefused(c -> c.withHeaderTimeout(null), "headerTimeout", "1ms..10m");
    assertRefused(c -> c.withIdleTimeout(Duration.ofHours(2)), "idleTimeout", "1ms..1h");
    assertRefused(
        c -> c.withMaxReservedAhead(Duration.ofMillis(-1)), "maxReservedAhead", "1ms..1m");
  }

  private static void assertRefused(
      Function<ServerConfig, ServerConfig> change, String setting, String allowed) {
    assertThatThrownBy(() -> change.apply(ServerConfig.defaults()))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith(setting + " = ")
        .hasMessageEndingWith("allowed: " + allowed);
  }

  @Test
  void toString_namesTheLimits() {
    assertThat(ServerConfig.defaults().withMaxConnections(7).toString())
        .contains(
            "maxConnections=7, headerTimeout=PT10S, idleTimeout=PT30S, maxReservedAhead=PT0.25S");
  }
}
