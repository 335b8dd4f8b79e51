package io.snowid.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import io.snowid.TimeSource;
import io.snowid.lease.LeaseCoordinators;
import io.snowid.node.NodeLease;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An etcd URI holds members as host:port, credentials, snowid's lease options and {@code prefix},
 * nothing else and nothing twice; bad input is refused before anything connects (no server needed:
 * every URI here points at a port where nothing listens), and a password never shows.
 */
class EtcdOptionsTest {
  private static final String NOWHERE = "etcd://127.0.0.1:1";

  @ParameterizedTest
  @CsvSource({
    "namepsace=orders, namepsace, namespace",
    "tll=5s, tll, ttl",
    "skwe=1s, skwe, skew",
    "startwait=1m, startwait, startWait",
    "instanse=a, instanse, instance",
    "prefx=other, prefx, prefix",
    "conectWait=1s, conectWait, connectWait",
  })
  void misspeltOption_refusedNamingItAndWhatItMeans(String option, String key, String meant) {
    assertThatThrownBy(() -> lease(NOWHERE + "?ttl=2s&" + option))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("node = " + key + " is invalid; allowed: an option of etcd://")
        .hasMessageEndingWith("; did you mean " + meant + "?");
  }

  @ParameterizedTest
  @CsvSource({
    "ttl=5s&ttl=9s, ttl",
    "namespace=a&namespace=b, namespace",
    "prefix=a&prefix=b, prefix"
  })
  void optionGivenTwice_refusedNamingIt(String query, String option) {
    assertThatThrownBy(() -> lease(NOWHERE + "?" + query))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining(option + " is given twice");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "etcd://127.0.0.1",
        "etcd://127.0.0.1:99999",
        "etcd://127.0.0.1:2379,",
        "etcd://127.0.0.1:2379/path",
        "etcd://"
      })
  void malformedMembers_refusedShowingTheForm(String uri) {
    assertThatThrownBy(() -> EtcdSettings.parse(uri))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("etcd://[user:password@]host:port[,host:port]");
  }

  @Test
  void prefix_outsideItsCharacters_refusedNamingThem() {
    assertThatThrownBy(() -> EtcdSettings.parse(NOWHERE + "?prefix=a/b"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("prefix = a/b is invalid; allowed: 1 to 100 of A-Z a-z 0-9 . _ -");
  }

  @Test
  void tls_refusedSayingItIsNotSupported() {
    assertThatThrownBy(() -> EtcdSettings.parse("etcds://127.0.0.1:2379"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("TLS is not supported");
  }

  @Test
  void severalMembers_areEachAnEndpoint_andDescribedWithoutCredentials() {
    EtcdSettings s = EtcdSettings.parse("etcd://app:S3cr3t@10.0.0.1:2379,10.0.0.2:2380?prefix=ids");

    assertThat(s.endpoints()).containsExactly("http://10.0.0.1:2379", "http://10.0.0.2:2380");
    assertThat(s.user()).isEqualTo("app");
    assertThat(s.password()).isEqualTo("S3cr3t");
    assertThat(s.prefix()).isEqualTo("ids");
    assertThat(s.describe()).isEqualTo("etcd://10.0.0.1:2379,10.0.0.2:2380?prefix=ids");
    assertThat(s.toString()).doesNotContain("S3cr3t");
  }

  @Test
  void percentEncodedPassword_isDecoded() {
    assertThat(EtcdSettings.parse("etcd://app:a%40b%2Fc@127.0.0.1:2379").password())
        .isEqualTo("a@b/c");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "etcd://app:S3cr3t/pwQ@127.0.0.1:16393",
        "etcd://app:S3cr3t@pwQ@127.0.0.1:16393",
        "etcd://S3cr3tpwQ@127.0.0.1:16393",
        "etcd://app:S3cr3tpwQ@127.0.0.1:16393?prefx=a"
      })
  void badUriWithCredentials_refusedWithoutThePassword(String uri) {
    Throwable t = catchThrowable(() -> LeaseCoordinators.open(uri).close());

    assertThat(t).as(uri).isInstanceOf(InvalidSettingException.class);
    assertThat(t.getMessage()).as(uri).doesNotContain("S3cr3t").doesNotContain("pwQ");
  }

  @Test
  void aMisspeltEtcdScheme_getsDidYouMean_andTheEtcdSchemeIsListed() {
    assertThatThrownBy(() -> LeaseCoordinators.provider("ectd://127.0.0.1:2379"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("etcd://")
        .hasMessageEndingWith("; did you mean etcd://?")
        .hasMessageNotContaining("EtcdLeaseProvider");
  }

  @Test
  void ttl_mapsToWholeSecondsRoundedUp_neverBelowTheAskedTime() {
    for (long ms : List.of(300L, 999L, 1000L, 1001L, 2000L, 2500L, 10_000L, 3_600_000L)) {
      long seconds = EtcdLeaseCoordinator.etcdTtlSeconds(Duration.ofMillis(ms));
      assertThat(seconds * 1000).as("ttl %d ms", ms).isGreaterThanOrEqualTo(ms);
      assertThat(seconds * 1000 - ms).as("ttl %d ms", ms).isLessThan(1000);
    }
  }

  private static NodeLease lease(String uri) {
    return LeaseCoordinators.lease(uri, Layout.twitter(), Map.of(), TimeSource.monotonic());
  }
}
