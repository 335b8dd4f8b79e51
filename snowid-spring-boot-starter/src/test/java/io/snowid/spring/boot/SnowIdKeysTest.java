package io.snowid.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.Snowflake;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * A key under {@code snowid.} that is no setting stops the start, naming it and the setting it most
 * likely misspells: a misspelt {@code snowid.node} would leave every host on a lease directory of
 * its own, and their IDs would collide.
 */
@ExtendWith(OutputCaptureExtension.class)
class SnowIdKeysTest {
  @Configuration(proxyBeanMethods = false)
  @ImportAutoConfiguration({
    SnowIdConnectionsAutoConfiguration.class,
    SnowIdAutoConfiguration.class,
    SnowIdGeneratorsAutoConfiguration.class
  })
  static class App {}

  @TempDir Path dir;

  private ConfigurableApplicationContext start(String... properties) {
    return new SpringApplicationBuilder(App.class)
        .web(WebApplicationType.NONE)
        .properties(properties)
        .run();
  }

  @Test
  void misspeltNode_stopsTheStartNamingItAndTheNearMiss(CapturedOutput output) {
    assertThatThrownBy(() -> start("snowid.nod=file:" + dir.resolve("leases")).close()).isNotNull();

    assertThat(output)
        .contains("APPLICATION FAILED TO START")
        .contains("snowid.nod is no setting of snowid")
        .contains("did you mean snowid.node?");
  }

  @Test
  void misspeltNestedSetting_stopsTheStart(CapturedOutput output) {
    assertThatThrownBy(
            () -> start("snowid.node=file:" + dir.resolve("leases"), "snowid.lease.tll=5s").close())
        .isNotNull();

    assertThat(output).contains("snowid.lease.tll is no setting of snowid").contains("lease.ttl");
  }

  @Test
  void everyKindOfSetting_andTheCoresSystemProperties_areAccepted() {
    try (ConfigurableApplicationContext context =
        start(
            "snowid.node=file:" + dir.resolve("leases"),
            "snowid.layout=twitter",
            "snowid.fields.datacenter=3",
            "snowid.lease.ttl=5s",
            "snowid.json.format=decimal",
            "snowid.mybatis-plus.uuid-form=base62",
            "snowid.generators.invoices.layout=twitter",
            "snowid.host-claim=off",
            "snowid.worker-id=3")) {
      assertThat(context.getBean(Snowflake.class).node()).containsEntry("datacenter", 3L);
    }
  }
}
