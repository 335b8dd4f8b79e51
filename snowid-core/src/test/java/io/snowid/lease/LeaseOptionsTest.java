package io.snowid.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.InvalidSettingException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LeaseOptionsTest {

  @Test
  void parse_noQuery_givesTheDefaults() {
    LeaseOptions o = LeaseOptions.parse("file:/var/lib/snowid", Duration.ofSeconds(3));
    assertThat(o.base()).isEqualTo("file:/var/lib/snowid");
    assertThat(o.namespace()).isEqualTo("default");
    assertThat(o.ttl()).isEqualTo(Duration.ofSeconds(3));
    assertThat(o.renewEvery()).isEqualTo(Duration.ofSeconds(1));
    assertThat(o.skew()).isEqualTo(Duration.ofSeconds(1));
    assertThat(o.limits()).isEqualTo(LeaseLimits.DEFAULT);
    // the wait after a registry's loss: maxTtl 30s + 2 × maxSkew 5s + 1s
    assertThat(o.startWait()).isEqualTo(Duration.ofSeconds(41));
    assertThat(o.instance()).isNotBlank().matches("[A-Za-z0-9._:-]+");
    assertThat(o.fields()).isEmpty();
  }

  @Test
  void parse_everyOption_isReadAndOthersStayInTheBase() {
    LeaseOptions o =
        LeaseOptions.parse(
            "redis://h:6379/0?timeout=2s&namespace=orders&ttl=20s&renew=5s&skew=250ms"
                + "&startWait=1m&instance=svc-1&fields=worker,datacenter",
            Duration.ofSeconds(10));
    assertThat(o.base()).isEqualTo("redis://h:6379/0?timeout=2s");
    assertThat(o.namespace()).isEqualTo("orders");
    assertThat(o.ttl()).isEqualTo(Duration.ofSeconds(20));
    assertThat(o.renewEvery()).isEqualTo(Duration.ofSeconds(5));
    assertThat(o.skew()).isEqualTo(Duration.ofMillis(250));
    assertThat(o.startWait()).isEqualTo(Duration.ofMinutes(1));
    assertThat(o.instance()).isEqualTo("svc-1");
    assertThat(o.fields()).isEqualTo(List.of("worker", "datacenter"));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "file:/x?ttl=10, ttl",
    "file:/x?ttl=100ms, ttl",
    "file:/x?ttl=2h, ttl",
    "file:/x?skew=-1s, skew",
    "file:/x?namespace=a/b, namespace",
    "file:/x?instance=, instance",
    "file:/x?ttl=10s&renew=6s, renew",
    "file:/x?startWait=11m, startWait",
    "file:/x?maxTtl=2h, maxTtl",
    "file:/x?maxTtl=500ms&ttl=500ms, maxTtl",
    "file:/x?maxSkew=2m, maxSkew",
    "file:/x?ttl=31s, ttl",
    "file:/x?ttl=20s&maxTtl=10s, ttl",
    "file:/x?skew=6s, skew",
    "file:/x?skew=2s&maxSkew=1s, skew"
  })
  void parse_badValue_throwsNamingTheOption(String uri, String option) {
    assertThatThrownBy(() -> LeaseOptions.parse(uri, Duration.ofSeconds(3)))
        .isInstanceOfSatisfying(
            InvalidSettingException.class, e -> assertThat(e.setting()).isEqualTo(option));
  }

  @Test
  void parse_ttlInHours_isRead() {
    assertThat(LeaseOptions.parse("file:/x?ttl=1h&maxTtl=1h", Duration.ofSeconds(2)).ttl())
        .isEqualTo(Duration.ofHours(1));
    assertThatThrownBy(() -> LeaseOptions.parse("file:/x?ttl=2h", Duration.ofSeconds(2)))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("ttl");
  }

  @Test
  void parse_ttlAboveMaxTtl_refusedNamingBothAndTheWaitItCosts() {
    assertThatThrownBy(() -> LeaseOptions.parse("redis://h?ttl=1m", Duration.ofSeconds(10)))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage(
            "ttl = 1m is invalid; allowed: at most maxTtl 30s (raise maxTtl on every holder of the"
                + " namespace: after a registry loses its state, newcomers wait maxTtl + 2 ×"
                + " maxSkew + 1s)");
  }

  @Test
  void parse_largerLimits_raiseTheDefaultStartWaitToTheirLossWait() {
    LeaseOptions o =
        LeaseOptions.parse(
            "redis://h?ttl=1m&maxTtl=2m&skew=10s&maxSkew=10s", Duration.ofSeconds(10));
    assertThat(o.limits())
        .isEqualTo(new LeaseLimits(Duration.ofMinutes(2), Duration.ofSeconds(10)));
    assertThat(o.startWait()).isEqualTo(Duration.ofSeconds(120 + 20 + 1));
    assertThat(o.limits().lostUntilMillis(1_000)).isEqualTo(1_000 + 120_000 + 10_000 + 1_000);
  }

  @Test
  void open_fileWithUnknownOption_isRejected() {
    assertThatThrownBy(() -> LeaseCoordinators.open("file:/tmp/x?color=blue"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("namespace, ttl");
  }

  @Test
  void anUnknownScheme_namedWithoutItsPassword() {
    assertThatThrownBy(() -> LeaseCoordinators.provider("nosuch://user:s3/cr3t@h:1?password=pw2"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("nosuch://h:1?password=***")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("cr3t").doesNotContain("pw2"));
  }
}
