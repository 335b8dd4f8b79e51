package io.snowid.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import io.snowid.TimeSource;
import io.snowid.node.NodeLease;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Lease options are exact: a misspelt one is refused with the name it misspells (not passed on to
 * lease in the default namespace), a repeated one is refused (not read as its last value), and
 * either is found before the lease directory is touched.
 */
class LeaseOptionsExactTest {
  @TempDir Path tmp;

  @ParameterizedTest
  @CsvSource({
    "ttl=5s&ttl=9s, ttl, 9s",
    "namespace=a&namespace=b, namespace, b",
    "skew=1s&skew=1s, skew, 1s",
    "startWait=1m&startWait=2m, startWait, 2m",
    "instance=a&instance=a, instance, a",
    "fields=worker&fields=datacenter, fields, datacenter",
    "renew=1s&renew=2s, renew, 2s",
  })
  void parse_optionGivenTwice_isRefusedNamingIt(String query, String option, String second) {
    assertThatThrownBy(() -> LeaseOptions.parse("file:/x?" + query, Duration.ofSeconds(2)))
        .isInstanceOfSatisfying(
            InvalidSettingException.class,
            e -> {
              assertThat(e.setting()).isEqualTo(option);
              assertThat(e.value()).isEqualTo(second);
            })
        .hasMessageContaining(option + " is given twice");
  }

  @Test
  void parse_otherKeysGivenTwice_areLeftToTheCoordinator() {
    assertThat(LeaseOptions.parse("redis://h?timeout=1s&timeout=2s", Duration.ofSeconds(2)).base())
        .isEqualTo("redis://h?timeout=1s&timeout=2s");
  }

  @Test
  void names_areTheOptionsParseReads() {
    assertThat(LeaseOptions.names())
        .containsExactly(
            "namespace",
            "ttl",
            "skew",
            "startWait",
            "instance",
            "fields",
            "renew",
            "maxTtl",
            "maxSkew",
            "connectWait");
    assertThat(LeaseOptions.KEYS).isEqualTo(String.join(", ", LeaseOptions.names()));
  }

  @ParameterizedTest
  @CsvSource({
    "namepsace=orders, namepsace, namespace",
    "Namespace=orders, Namespace, namespace",
    "tll=5s, tll, ttl",
    "skwe=1s, skwe, skew",
    "startwait=1m, startwait, startWait",
    "instanse=a, instanse, instance",
    "feilds=worker, feilds, fields",
    "renwe=1s, renwe, renew",
    "maxtll=1m, maxtll, maxTtl",
    "maxSkwe=9s, maxSkwe, maxSkew",
  })
  void lease_fileWithMisspeltOption_refusedWithTheMeantNameAndNothingWritten(
      String query, String key, String meant) {
    Path dir = tmp.resolve("leases");

    assertThatThrownBy(() -> lease("file:" + dir + "?ttl=1s&" + query))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("node = " + key + " is invalid; allowed: file:DIR with the options")
        .hasMessageEndingWith("; did you mean " + meant + "?");
    assertThat(dir).doesNotExist();
  }

  @ParameterizedTest
  @CsvSource({
    "ttl=1s&ttl=2s, ttl",
    "namespace=orders&namespace=orders, namespace",
    "fields=worker&fields=worker, fields",
  })
  void lease_fileWithRepeatedOption_refusedAndNothingWritten(String query, String option) {
    Path dir = tmp.resolve("leases");

    assertThatThrownBy(() -> lease("file:" + dir + "?" + query))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining(option + " is given twice");
    assertThat(dir).doesNotExist();
  }

  @Test
  void lease_fileWithAnUnknownFarName_refusedWithoutAGuess() {
    Path dir = tmp.resolve("leases");

    assertThatThrownBy(() -> lease("file:" + dir + "?color=blue"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage(
            "node = color is invalid; allowed: file:DIR with the options namespace, ttl, skew,"
                + " startWait, instance, fields, renew, maxTtl, maxSkew, connectWait only");
    assertThat(dir).doesNotExist();
  }

  /** The same URI, spelt right, leases in its namespace: the checks above look where it writes. */
  @Test
  void lease_fileSpeltRight_writesTheNamespaceFolder() throws Exception {
    Path dir = tmp.resolve("leases");

    try (NodeLease l = lease("file:" + dir + "?ttl=1s&namespace=orders");
        var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).anyMatch(n -> n.contains("orders"));
    }
  }

  private static NodeLease lease(String uri) {
    return LeaseCoordinators.lease(uri, Layout.preset("westid"), Map.of(), TimeSource.monotonic());
  }
}
