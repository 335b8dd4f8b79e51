package io.snowid.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.InvalidSettingException;
import io.snowid.Snowflake;
import io.snowid.lease.AcquireRequest;
import io.snowid.lease.LeaseLimits;
import io.snowid.lease.LeaseTerms;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lease lives as long as its session, so the session timeout the ensemble grants must be at least
 * the ttl: a ttl above what it grants (tickTime × 20 by default) is refused at the first
 * acquisition, naming ttl, what was asked, what was granted and the range; nothing is taken.
 */
@Tag("integration")
class ZooKeeperTtlRefusalTest {
  @TempDir Path dir;
  private final String root = TestZooKeeper.uniqueRoot();

  @AfterEach
  void cleanUp() {
    TestZooKeeper.delete(TestZooKeeper.SHARED, root);
  }

  @Test
  void build_ttlAboveTheSharedServersMaximumSession_refusedNamingAskedAndGranted() {
    String uri = TestZooKeeper.uri(root) + "?ttl=45s&maxTtl=45s";

    assertThatThrownBy(() -> Snowflake.builder().nodeSource(uri).build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("ttl = 45s is invalid")
        .hasMessageContaining("asked 45s, granted 40s")
        .hasMessageContaining("tickTime × 2 to tickTime × 20");
  }

  /** A server of short ticks (500 ms: sessions of 1 s to 10 s) refuses 12 s and grants 10 s. */
  @Test
  void acquire_ttlAboveAPrivateServersMaximum_refusedAndNothingTaken_thenItsMaximumGranted() {
    try (PrivateZooKeeper zk = PrivateZooKeeper.start(dir.resolve("short"), 500)) {
      TestZooKeeper.putInService(zk.connect(), "/short");
      try (ZooKeeperLeaseCoordinator c =
          ZooKeeperLeaseCoordinator.open("zookeeper://" + zk.connect() + "/short")) {
        assertThatThrownBy(() -> c.acquire(request(12_000)))
            .isInstanceOf(InvalidSettingException.class)
            .hasMessageContaining("asked 12s, granted 10s");
        assertThat(c.list("ns").leases()).isEmpty();

        assertThat(c.acquire(request(10_000)).nodeId()).isZero();
      }
    }
  }

  private static AcquireRequest request(long ttl) {
    long now = System.currentTimeMillis();
    return new AcquireRequest(
        "ns",
        4,
        0,
        0,
        "x",
        new LeaseTerms(Duration.ofMillis(ttl), now, now + ttl),
        new LeaseLimits(Duration.ofSeconds(30), Duration.ofSeconds(1)));
  }
}
