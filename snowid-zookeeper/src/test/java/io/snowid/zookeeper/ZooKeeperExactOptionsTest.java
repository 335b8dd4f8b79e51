package io.snowid.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import io.snowid.TimeSource;
import io.snowid.lease.LeaseCoordinators;
import io.snowid.node.NodeLease;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A zookeeper: URI's query holds snowid's lease options, nothing else and nothing twice; a misspelt
 * one is named with the option it misspells; a malformed ensemble or chroot is named. All found
 * before anything connects: the port given has no server (a connection would fail otherwise).
 */
class ZooKeeperExactOptionsTest {
  private static final String URI = "zookeeper://127.0.0.1:1/snowid?ttl=4s";

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
    "maxttl=30s, maxttl, maxTtl",
    "conectWait=1s, conectWait, connectWait",
  })
  void lease_misspeltOption_refusedNamingItAndTheOptionItMeans(
      String option, String key, String meant) {
    assertThatThrownBy(() -> lease(URI + "&" + option))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("node = " + key + " is invalid; allowed: an option of zookeeper://")
        .hasMessageEndingWith("; did you mean " + meant + "?");
  }

  @Test
  void lease_unknownOptionFarFromAnyName_refusedListingTheOptions() {
    assertThatThrownBy(() -> lease(URI + "&sessionTimeout=4s"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("node = sessionTimeout is invalid")
        .hasMessageContaining("namespace, ttl, skew");
  }

  @ParameterizedTest
  @CsvSource({
    "ttl=5s&ttl=9s, ttl",
    "namespace=a&namespace=b, namespace",
    "instance=a&instance=a, instance",
  })
  void lease_optionGivenTwice_refusedNamingIt(String query, String option) {
    assertThatThrownBy(() -> lease("zookeeper://127.0.0.1:1/snowid?" + query))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining(option + " is given twice");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "zookeeper://127.0.0.1:1/",
        "zookeeper://127.0.0.1:1/a//b",
        "zookeeper://127.0.0.1:1/a/../b",
        "zookeeper://127.0.0.1:1/a b",
      })
  void open_malformedChroot_refusedNamingTheForm(String uri) {
    if (uri.endsWith(":1/")) {
      assertThat(ZooKeeperSettings.parse(uri).root()).isEqualTo("/snowid");
      return;
    }
    assertThatThrownBy(() -> ZooKeeperSettings.parse(uri))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("chroot = ")
        .hasMessageContaining("an absolute path");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "zookeeper://",
        "zookeeper://127.0.0.1:99999",
        "zookeeper://127.0.0.1:1,,127.0.0.2:1",
        "zookeeper://127.0.0.1:x",
      })
  void open_malformedEnsemble_refusedNamingTheForm(String uri) {
    assertThatThrownBy(() -> ZooKeeperSettings.parse(uri))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("host[:port] expected")
        .hasMessageContaining("zookeeper://[user:password@]host[:port]");
  }

  @Test
  void parse_ensembleWithoutPorts_takes2181AndTheDefaultChroot() {
    ZooKeeperSettings s = ZooKeeperSettings.parse("zk://a.example,b.example:2182");

    assertThat(s.connectString()).isEqualTo("a.example:2181,b.example:2182");
    assertThat(s.root()).isEqualTo("/snowid");
    assertThat(s.describe()).isEqualTo("zookeeper://a.example:2181,b.example:2182");
  }

  private static NodeLease lease(String uri) {
    return LeaseCoordinators.lease(uri, Layout.twitter(), Map.of(), TimeSource.monotonic());
  }
}
