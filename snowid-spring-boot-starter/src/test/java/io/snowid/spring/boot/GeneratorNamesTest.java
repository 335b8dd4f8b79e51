package io.snowid.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.binder.MeterBinder;
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
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A wrong name or key under {@code snowid.generators}, or a wrong value of a named generator, fails
 * the start before any lease is taken; Boot's report names it, with what is allowed.
 */
@ExtendWith(OutputCaptureExtension.class)
class GeneratorNamesTest {
  @Configuration(proxyBeanMethods = false)
  @ImportAutoConfiguration({
    SnowIdConnectionsAutoConfiguration.class,
    SnowIdAutoConfiguration.class,
    SnowIdGeneratorsAutoConfiguration.class
  })
  static class App {}

  /** With health, meters and the endpoint, as an application with Actuator has them. */
  @Configuration(proxyBeanMethods = false)
  @ImportAutoConfiguration({
    SnowIdConnectionsAutoConfiguration.class,
    SnowIdAutoConfiguration.class,
    SnowIdGeneratorsAutoConfiguration.class,
    SnowIdHealthAutoConfiguration.class,
    SnowIdMetricsAutoConfiguration.class,
    SnowIdEndpointAutoConfiguration.class
  })
  static class ActuatorApp {}

  /** The application's own generator, beside the starter's auto-configurations. */
  @Configuration(proxyBeanMethods = false)
  static class OwnSnowflake {
    @Bean(destroyMethod = "close")
    Snowflake own() {
      return Snowflake.builder().nodeSource("static:worker=7,datacenter=7").build();
    }
  }

  @TempDir Path dir;

  private void start(String... properties) {
    new SpringApplicationBuilder(App.class)
        .web(WebApplicationType.NONE)
        .properties("snowid.node=file:" + dir.resolve("leases"))
        .properties(properties)
        .run()
        .close();
  }

  @Test
  void namedGeneratorsRegistryOutOfReach_theActionNamesItsNodeProperty(CapturedOutput output) {
    assertThatThrownBy(
            () ->
                start(
                    "snowid.generators.invoices.layout=sonyflake",
                    "snowid.generators.invoices.node=redis://127.0.0.1:1?connectWait=0s"))
        .isNotNull();

    assertThat(output)
        .contains("APPLICATION FAILED TO START")
        .contains("Make the node source of snowid.generators.invoices.node reachable");
  }

  @Test
  void nameWithUpperCase_refusedWithTheAllowedForm(CapturedOutput output) {
    assertThatThrownBy(() -> start("snowid.generators.Invoices.layout=twitter")).isNotNull();

    assertThat(output)
        .contains("APPLICATION FAILED TO START")
        .contains("snowid.generators = Invoices is invalid")
        .contains("a name of lower-case letters, digits and '-', starting with a letter");
  }

  @Test
  void nameDefault_refused_itIsTheUnnamedGenerators(CapturedOutput output) {
    assertThatThrownBy(() -> start("snowid.generators.default.layout=js53")).isNotNull();

    assertThat(output)
        .contains("snowid.generators = default is invalid")
        .contains("not default (the unnamed generator's)");
  }

  @Test
  void misspeltKey_refusedWithDidYouMean(CapturedOutput output) {
    assertThatThrownBy(() -> start("snowid.generators.invoices.lyout=js53")).isNotNull();

    assertThat(output)
        .contains("snowid.generators.invoices.lyout is no setting of snowid")
        .contains("did you mean snowid.generators.invoices.layout?");
  }

  @Test
  void misspeltLeaseOption_refusedWithDidYouMean(CapturedOutput output) {
    assertThatThrownBy(() -> start("snowid.generators.invoices.lease.max-tll=5s")).isNotNull();

    assertThat(output)
        .contains("snowid.generators.invoices.lease.max-tll is no setting of snowid")
        .contains("did you mean snowid.generators.invoices.lease.max-ttl?");
  }

  @Test
  void unknownKeyFarFromAny_refusedListingTheSettings(CapturedOutput output) {
    assertThatThrownBy(() -> start("snowid.generators.invoices.password=hunter22")).isNotNull();

    assertThat(output)
        .contains("snowid.generators.invoices.password is no setting of snowid")
        .contains("layout, lead, lease.connect-wait")
        .doesNotContain("did you mean");
  }

  @Test
  void valueOutOfRange_reportNamesTheNamedProperty(CapturedOutput output) {
    assertThatThrownBy(() -> start("snowid.generators.invoices.lead=2m")).isNotNull();

    assertThat(output)
        .contains("snowid.generators.invoices.lead = 2m is invalid; allowed: 0s..1m")
        .contains("Property: snowid.generators[invoices].lead");
  }

  @Test
  void fieldOfAnotherLayout_reportNamesTheNamedProperty(CapturedOutput output) {
    assertThatThrownBy(
            () ->
                start(
                    "snowid.generators.events.layout=sonyflake",
                    "snowid.generators.events.fields.worker=1"))
        .isNotNull();

    assertThat(output).contains("snowid.generators.events.fields.worker = 1 is invalid");
  }

  /** lease.* is the top level's unless set: a ttl above the named one's own max-ttl is refused. */
  @Test
  void inheritedTtlAboveTheNamedMaxTtl_reportNamesTheNamedProperty(CapturedOutput output) {
    assertThatThrownBy(
            () ->
                start(
                    "snowid.lease.ttl=10s",
                    "snowid.generators.events.layout=sonyflake",
                    "snowid.generators.events.lease.max-ttl=5s"))
        .isNotNull();

    assertThat(output)
        .contains("Property: snowid.generators[events].lease.ttl")
        .contains("at most maxTtl 5s");
  }

  @Test
  void disabled_withNamedGeneratorsSet_startsWithoutAnyGenerator() {
    try (ConfigurableApplicationContext c =
        new SpringApplicationBuilder(ActuatorApp.class)
            .web(WebApplicationType.NONE)
            .properties("snowid.enabled=false", "snowid.generators.invoices.layout=js53")
            .run()) {
      assertThat(c.getBeansOfType(Snowflake.class)).isEmpty();
      assertThat(c.getBeansOfType(MeterBinder.class)).isEmpty();
    }
  }

  @Test
  void disabled_withTheApplicationsOwnSnowflake_healthAndMetersFollowIt() {
    try (ConfigurableApplicationContext c =
        new SpringApplicationBuilder(ActuatorApp.class, OwnSnowflake.class)
            .web(WebApplicationType.NONE)
            .properties("snowid.enabled=false", "snowid.generators.invoices.layout=js53")
            .run()) {
      assertThat(c.getBeansOfType(Snowflake.class)).containsOnlyKeys("own");
      assertThat(c.getBean(SnowIdGenerators.class).names()).containsExactly("default");
      assertThat(c.containsBean("snowidHealthIndicator")).isTrue();
      assertThat(c.getBeansOfType(MeterBinder.class)).hasSize(1);
    }
  }

  @Test
  void nameWithDigitsAndDashes_starts() {
    start("snowid.generators.order-ids-2.layout=js53");
  }
}
