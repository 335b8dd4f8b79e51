package io.snowid.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

/**
 * A wrong {@code snowid.*} property, or a node source out of reach, fails the start of the
 * application; Spring Boot's report (what the user sees) names the property and what is allowed, or
 * says why no node id could be had.
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupFailureTest {
  @Configuration(proxyBeanMethods = false)
  @ImportAutoConfiguration({
    SnowIdConnectionsAutoConfiguration.class,
    SnowIdAutoConfiguration.class
  })
  static class App {}

  private static void start(String... properties) {
    new SpringApplicationBuilder(App.class)
        .web(WebApplicationType.NONE)
        .properties(properties)
        .run()
        .close();
  }

  @Test
  void leadOutOfRange_reportNamesThePropertyAndTheRange(CapturedOutput output) {
    assertThatThrownBy(() -> start("snowid.lead=2m")).isNotNull();

    assertThat(output)
        .contains("APPLICATION FAILED TO START")
        .contains("Property: snowid.lead")
        .contains("allowed: 0s..1m");
  }

  @Test
  void fieldValueTooLarge_reportNamesTheFieldAndItsRange(CapturedOutput output) {
    assertThatThrownBy(() -> start("snowid.fields.worker=32")).isNotNull();

    assertThat(output)
        .contains("Property: snowid.fields")
        .contains("snowid.fields.worker = 32 is invalid; allowed: 0..31");
  }

  @Test
  void leaseTtlTooShort_reportNamesThePropertyAndTheRange(CapturedOutput output) {
    assertThatThrownBy(() -> start("snowid.lease.ttl=100ms")).isNotNull();

    assertThat(output).contains("Property: snowid.lease.ttl").contains("allowed: 300ms to 1h");
  }

  @Test
  void leaseTtlAboveMaxTtl_reportNamesTheLimit(CapturedOutput output) {
    assertThatThrownBy(() -> start("snowid.lease.ttl=1m")).isNotNull();

    assertThat(output).contains("Property: snowid.lease.ttl").contains("at most maxTtl 30s");
  }

  /** The check takes the file: coordinator's own default ttl (2s), not a network one's (10s). */
  @Test
  void fileLeaseWithASmallerMaxTtl_starts(@TempDir Path dir) {
    start("snowid.node=file:" + dir.resolve("leases"), "snowid.lease.max-ttl=5s");
  }

  @Test
  void unknownLayout_reportNamesTheProperty(CapturedOutput output) {
    assertThatThrownBy(() -> start("snowid.layout=twitterr")).isNotNull();

    assertThat(output).contains("Property: snowid.layout").contains("twitterr");
  }

  @Test
  void clockbackWithoutAField_reportSaysWhy(CapturedOutput output) {
    assertThatThrownBy(
            () -> start("snowid.clock.source=wall-clock", "snowid.clock.policy=clockback"))
        .isNotNull();

    assertThat(output)
        .contains("Property: snowid.clock.policy")
        .contains("allowed: wait or fail, since the layout");
  }

  @Test
  void unknownClockPolicy_reportListsTheValues(CapturedOutput output) {
    assertThatThrownBy(() -> start("snowid.clock.policy=sometimes")).isNotNull();

    assertThat(output)
        .contains("Property: snowid.clock.policy")
        .contains("    clockback", "    fail", "    wait");
  }

  @Test
  void leaseOptionWithStaticNode_reportNamesBoth(CapturedOutput output) {
    assertThatThrownBy(
            () -> start("snowid.node=static:worker=1,datacenter=2", "snowid.lease.ttl=5s"))
        .isNotNull();

    assertThat(output).contains("Property: snowid.lease.ttl").contains("no lease coordinator");
  }

  @Test
  void coordinatorOutOfReach_startFailsWithTheReason(CapturedOutput output) {
    assertThatThrownBy(
            () ->
                start("snowid.node=redis://127.0.0.1:1?timeout=1s", "snowid.lease.connect-wait=1s"))
        .isNotNull();

    assertThat(output)
        .contains("snowid could not start its ID generator")
        .contains("redis://127.0.0.1:1 cannot be reached")
        .contains("no answer within connectWait 1s")
        .contains("Make the node source of snowid.node reachable");
  }

  @Test
  void connectionTheApplicationLacks_reportNamesWhatItNeeds(CapturedOutput output) {
    assertThatThrownBy(() -> start("snowid.node=datasource")).isNotNull();

    assertThat(output)
        .contains("snowid could not start its ID generator")
        .contains("Correct snowid.node (now datasource)")
        .contains("datasource needs snowid-jdbc and one DataSource bean");
  }
}
