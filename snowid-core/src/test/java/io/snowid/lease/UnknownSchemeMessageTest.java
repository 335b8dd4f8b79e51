package io.snowid.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.snowid.InvalidSettingException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A node URI that no provider on the class path opens is refused in the user's words: the schemes
 * that are there, the scheme a misspelling means, the module that brings a missing one; never a
 * class name. The core's test class path has {@code file:} and the test's {@code flaky:}.
 */
class UnknownSchemeMessageTest {

  private static String messageOf(String uri) {
    InvalidSettingException e =
        catchThrowableOfType(InvalidSettingException.class, () -> LeaseCoordinators.provider(uri));
    assertThat(e).as("refused: " + uri).isNotNull();
    assertThat(e.getMessage()).doesNotContainPattern("io\\.snowid\\.[a-z.]*[A-Z]");
    return e.getMessage();
  }

  @ParameterizedTest
  @CsvSource({
    "redis://127.0.0.1:6379, redis:// needs the module io.snowid:snowid-redis on the class path",
    "rediss://cache:6380, rediss:// needs the module io.snowid:snowid-redis on the class path",
    "jdbc:postgresql://db/app, jdbc:postgresql: needs the module io.snowid:snowid-jdbc on the class"
        + " path",
    "jdbc:h2:mem:x, jdbc:h2: needs the module io.snowid:snowid-jdbc on the class path",
    "zookeeper://zk:2181/snowid, zookeeper:// needs the module io.snowid:snowid-zookeeper",
    "zk://zk:2181, zk:// needs the module io.snowid:snowid-zookeeper",
    "etcd://etcd:2379, etcd:// needs the module io.snowid:snowid-etcd"
  })
  void aKnownSchemeWithoutItsModule_namesTheModuleToAdd(String uri, String expected) {
    assertThat(messageOf(uri)).contains(expected).contains("(file:, flaky:)");
  }

  @ParameterizedTest
  @CsvSource({
    "fiel:/var/lib/snowid, did you mean file:?",
    "flakey:/tmp/x, did you mean flaky:?",
    "redsi://127.0.0.1, did you mean redis://? It needs the module io.snowid:snowid-redis",
    "redis:127.0.0.1, did you mean redis://? It needs the module io.snowid:snowid-redis",
    "jdbc:postgres://db/app, did you mean jdbc:postgresql:? It needs the module"
        + " io.snowid:snowid-jdbc",
    "etdc://etcd:2379, did you mean etcd://? It needs the module io.snowid:snowid-etcd"
  })
  void aMisspeltScheme_getsTheSchemeItMeans(String uri, String expected) {
    assertThat(messageOf(uri)).contains(expected);
  }

  @ParameterizedTest
  @CsvSource({"consul://c:8500", "jdbc:oracle:thin:@db:1521/app", "/var/lib/snowid"})
  void anUnrelatedScheme_listsTheSchemesOnTheClassPath(String uri) {
    assertThat(messageOf(uri))
        .endsWith("allowed: a node URI of a scheme on the class path (file:, flaky:)");
  }
}
