package io.snowid.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.testkit.IssuerJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Configurations that look different but cover the same node values, on the shared Redis with one
 * URI and namespace: real processes that each issue millions of IDs at once must get different node
 * values, never issue one ID twice; a configuration that names a field twice is refused before it
 * writes anything.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
@Tag("integration")
class RedisMixedConfigurationsProcessTest {
  /** IDs per process: 5 million per pair. */
  private static final long COUNT = 2_500_000;

  @TempDir Path dir;
  private final String uri =
      TestRedis.shared().uri() + "?namespace=orders&prefix=" + TestRedis.uniquePrefix();
  private final List<IssuerJvm> started = new ArrayList<>();

  @BeforeEach
  void inService() {
    TestRedis.shared().putInService(uri);
  }

  @AfterEach
  void cleanUp() {
    started.forEach(IssuerJvm::close);
    TestRedis.shared().deletePrefix(uri);
  }

  private IssuerJvm start(IssuerJvm.Launch launch, String source) throws IOException {
    IssuerJvm p = launch.start(source);
    started.add(p);
    return p;
  }

  /** {@code SNOWID_DATACENTER_ID=0} (the worker leased) beside a process that leases both. */
  @Test
  void datacenterFromTheEnvironment_besideAProcessThatLeasesBothFields_apart() throws Exception {
    IssuerJvm a = start(IssuerJvm.in(dir, "a").count(COUNT).env("SNOWID_DATACENTER_ID", "0"), uri);
    IssuerJvm b = start(IssuerJvm.in(dir, "b").count(COUNT), uri);
    a.awaitReady();
    b.awaitReady();

    System.out.println(
        "redis: datacenter fixed / none: " + IssuerJvm.issueTogether(a, b).assertApart());
  }

  @Test
  void defaultBesideFieldsInAnotherOrder_apart() throws Exception {
    IssuerJvm a = start(IssuerJvm.in(dir, "a").count(COUNT), uri);
    IssuerJvm b = start(IssuerJvm.in(dir, "b").count(COUNT), uri + "&fields=worker,datacenter");
    a.awaitReady();
    b.awaitReady();

    System.out.println(
        "redis: default / fields=worker,datacenter: "
            + IssuerJvm.issueTogether(a, b).assertApart());
  }

  /**
   * A field named twice (the datacenter from the environment, so that nothing else is missing) is
   * refused before anything is written to Redis.
   */
  @Test
  void fieldNamedTwice_refusedNamingFields_nothingLeased() throws Exception {
    IssuerJvm a = start(IssuerJvm.in(dir, "a"), uri);
    a.awaitReady();
    List<String> before = keys();

    IssuerJvm b =
        start(
            IssuerJvm.in(dir, "b").env("SNOWID_DATACENTER_ID", "0"), uri + "&fields=worker,worker");
    String refusal = b.awaitRefused();
    System.out.println("redis: fields=worker,worker: " + refusal);

    assertThat(refusal)
        .startsWith("InvalidSettingException: ")
        .contains("fields", "worker,worker", "twice");
    assertThat(keys()).as("keys of the prefix").isEqualTo(before);
    a.stop();
  }

  private List<String> keys() {
    return TestRedis.shared().keys(uri).stream().sorted().toList();
  }
}
