package io.snowid.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.snowid.InvalidSettingException;
import io.snowid.lease.LeaseCoordinators;
import io.snowid.node.NodeIdUnavailableException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A ZooKeeper URI's digest password never reaches a message, a description or a settings' text: one
 * with an unencoded {@code / ? # @} is refused naming the URI without its userinfo; a well-formed
 * one on a port where nothing listens fails without it.
 */
class ZooKeeperSecretsTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "zookeeper://app:S3cr3t/pwQ@127.0.0.1:16393",
        "zookeeper://app:S3cr3t#pwQ@127.0.0.1:16393",
        "zookeeper://app:S3cr3t@pwQ@127.0.0.1:16393",
        "zookeeper://S3cr3tpwQ@127.0.0.1:16393/chroot",
        "zk://app:S3cr3tpwQ@127.0.0.1:16393/a//b",
        "zk://app:S3cr3tpwQ@127.0.0.1:16393?nmespace=x",
      })
  void malformed_refusedWithoutAnyPartOfThePassword(String uri) {
    Throwable t = catchThrowable(() -> LeaseCoordinators.open(uri).close());

    assertThat(t).as(uri).isInstanceOf(InvalidSettingException.class);
    assertThat(t.getMessage()).as(uri).doesNotContain("S3cr3t").doesNotContain("pwQ");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"zookeeper://app:S3cr3t@127.0.0.1:1", "zk://app:S3cr3t@127.0.0.1:1/chroot"})
  void unreachable_failsWithoutThePassword(String uri) {
    Throwable t = catchThrowable(() -> LeaseCoordinators.open(uri).close());

    assertThat(t).as(uri).isInstanceOf(NodeIdUnavailableException.class);
    assertThat(t.getMessage()).as(uri).contains("127.0.0.1:1").doesNotContain("S3cr3t");
  }

  @Test
  void settings_describeAndToString_withoutThePassword() {
    ZooKeeperSettings s = ZooKeeperSettings.parse("zookeeper://app:S3cr3t@127.0.0.1:2181/ids");

    assertThat(s.describe()).isEqualTo("zookeeper://127.0.0.1:2181/ids");
    assertThat(s.toString()).doesNotContain("S3cr3t");
    assertThat(s.digest()).isEqualTo("app:S3cr3t");
  }
}
