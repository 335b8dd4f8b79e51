package io.snowid.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.snowid.InvalidSettingException;
import io.snowid.lease.LeaseCoordinators;
import io.snowid.node.NodeIdUnavailableException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A Redis URI's password never reaches a message: one with an unencoded {@code / ? # @}, which
 * Lettuce would read in part as the host, a path or an option, is refused naming the URI without
 * its userinfo; a well-formed one on a port where nothing listens fails without it.
 */
class RedisSecretsTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "redis://:S3cr3t/pwQ@127.0.0.1:16393",
        "redis://:S3cr3t#pwQ@127.0.0.1:16393",
        "redis://:S3cr3t?pwQ@127.0.0.1:16393",
        "redis://app:S3cr3t@pwQ@127.0.0.1:16393",
        "rediss://S3cr3t/pwQ@127.0.0.1:16393/2",
        "redis-sentinel://S3cr3t@pwQ@127.0.0.1:16393,127.0.0.1:16394/0#mymaster",
        "redis-sentinel://S3cr3t@127.0.0.1:26379,pwQ@127.0.0.1:16393/0#mymaster"
      })
  void malformedUserinfo_refusedWithoutAnyPartOfIt(String uri) {
    Throwable t = catchThrowable(() -> LeaseCoordinators.open(uri).close());

    assertThat(t).as(uri).isInstanceOf(InvalidSettingException.class);
    assertThat(t.getMessage())
        .as(uri)
        .contains("127.0.0.1:16393")
        .doesNotContain("S3cr3t")
        .doesNotContain("pwQ");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "redis://:S3cr3t@127.0.0.1:1",
        "redis://app:S3cr3t@127.0.0.1:1/1",
        "redis://S3cr3t@127.0.0.1:1?timeout=1s"
      })
  void unreachable_failsWithoutThePassword(String uri) {
    Throwable t = catchThrowable(() -> LeaseCoordinators.open(uri).close());

    assertThat(t).as(uri).isInstanceOf(NodeIdUnavailableException.class);
    assertThat(t.getMessage()).as(uri).contains("127.0.0.1:1").doesNotContain("S3cr3t");
  }
}
