package io.snowid.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisClient;
import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import io.snowid.TimeSource;
import io.snowid.lease.LeaseCoordinators;
import io.snowid.node.NodeLease;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A redis: URI's query holds snowid's options, the coordinator's and Lettuce's, nothing else and
 * nothing twice; a misspelt one is named with the option it misspells. Found before Redis is
 * written: no key of the prefix appears.
 */
@Tag("integration")
class RedisExactOptionsTest {
  private final String uri = TestRedis.shared().uri() + "?prefix=" + TestRedis.uniquePrefix();

  @AfterEach
  void cleanUp() {
    TestRedis.shared().deletePrefix(uri);
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
    "prefx=other, prefx, prefix",
    "wiat=1, wiat, wait",
    "timeot=2s, timeot, timeout",
    "clientname=ids, clientname, clientName",
  })
  void lease_misspeltOption_refusedNamingItAndNoKeyWritten(
      String option, String key, String meant) {
    assertThatThrownBy(() -> lease(uri + "&ttl=2s&" + option))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("node = " + key + " is invalid; allowed: an option of redis://")
        .hasMessageEndingWith("; did you mean " + meant + "?");
    assertThat(TestRedis.shared().keys(uri)).isEmpty();
  }

  @ParameterizedTest
  @CsvSource({
    "ttl=5s&ttl=9s, ttl",
    "namespace=a&namespace=b, namespace",
    "fields=worker&fields=datacenter, fields",
    "instance=a&instance=a, instance",
    "wait=0&wait=0, wait",
    "timeout=2s&timeout=3s, timeout",
    "prefix=other, prefix",
  })
  void lease_optionGivenTwice_refusedNamingItAndNoKeyWritten(String query, String option) {
    assertThatThrownBy(() -> lease(uri + "&" + query))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining(option + " is given twice");
    assertThat(TestRedis.shared().keys(uri)).isEmpty();
  }

  /** The same URI, spelt right, leases under its prefix: the checks above look where it writes. */
  @Test
  void lease_speltRight_writesKeysOfThePrefix() {
    lease(uri + "&ttl=2s&namespace=orders&timeout=2s").close();

    assertThat(TestRedis.shared().keys(uri)).isNotEmpty();
  }

  @Test
  void openClient_misspeltOrRepeatedOption_refusedNamingIt() {
    RedisClient client = RedisClient.create(TestRedis.shared().uri());
    try {
      assertThatThrownBy(() -> RedisLeaseProvider.open(client, "prefx=a"))
          .isInstanceOf(InvalidSettingException.class)
          .hasMessageStartingWith("node = prefx is invalid")
          .hasMessageEndingWith("; did you mean prefix?");
      assertThatThrownBy(() -> RedisLeaseProvider.open(client, "wait=1&wait=1"))
          .isInstanceOf(InvalidSettingException.class)
          .hasMessage("node = wait is invalid; allowed: each option once (wait is given twice)");
    } finally {
      client.shutdown();
    }
  }

  private static NodeLease lease(String uri) {
    return LeaseCoordinators.lease(uri, Layout.twitter(), Map.of(), TimeSource.monotonic());
  }
}
