package io.snowid.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseLimits;
import io.snowid.lease.LeaseTakenException;
import io.snowid.lease.LeaseTerms;
import io.snowid.lease.LeaseTermsException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.zookeeper.ZKUtil;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What a ZooKeeper that lost part of its nodes makes newcomers do: every id taken after a loss
 * starts after maxTtl + maxSkew + 1 s from it (the limits every holder was held to, never the
 * newcomer's ttl); a namespace has one set of limits while holders live; a renewal that finds its
 * nodes gone while its session lives fences and records the loss. On the shared server, under a
 * chroot of each test's own. A restored older snapshot is ZooKeeperSnapshotRestoreTest.
 */
@Tag("integration")
class ZooKeeperRegistryLossTest {
  private static final LeaseLimits SHORT =
      new LeaseLimits(Duration.ofSeconds(1), Duration.ofMillis(500));
  private static final long DEFAULT_WAIT =
      LeaseLimits.DEFAULT.maxTtl().plus(LeaseLimits.DEFAULT.maxSkew()).toMillis();

  private final String root = TestZooKeeper.uniqueRoot();
  private final String uri = TestZooKeeper.uri(root);
  private final List<AutoCloseable> opened = new ArrayList<>();

  @AfterEach
  void cleanUp() throws Exception {
    for (AutoCloseable c : opened) {
      c.close();
    }
    TestZooKeeper.delete(TestZooKeeper.SHARED, root);
  }

  private ZooKeeperLeaseCoordinator open() {
    ZooKeeperLeaseCoordinator c = ZooKeeperLeaseCoordinator.open(uri);
    opened.add(c);
    return c;
  }

  private static AcquireRequest request(String instance, long ttl, LeaseLimits limits) {
    long now = System.currentTimeMillis();
    return new AcquireRequest(
        "ns", 4, 0, 0, instance, new LeaseTerms(Duration.ofMillis(ttl), now, now + ttl), limits);
  }

  private static LeaseTerms terms(long ttl) {
    long now = System.currentTimeMillis();
    return new LeaseTerms(Duration.ofMillis(ttl), now, now + ttl);
  }

  private void deleteNodes(String... paths) throws Exception {
    try (ZooKeeper zk = TestZooKeeper.client(TestZooKeeper.SHARED)) {
      for (String p : paths) {
        ZKUtil.deleteRecursive(zk, root + p);
      }
    }
  }

  @Test
  void acquire_newNamespaceOfAChrootInService_doesNotWait() {
    TestZooKeeper.putInService(TestZooKeeper.SHARED, root);
    Lease l = open().acquire(request("a", 2_000, LeaseLimits.DEFAULT));

    assertThat(l.highWaterMillis()).isLessThan(l.coordinatorNowMillis());
    assertThat(l.startReason()).isEmpty();
  }

  /**
   * A chroot of the version before the memory of created namespaces (no {@code registry/ns}): a
   * namespace with state is trusted as before, and the acquisition adds the memory, so that the
   * namespace's nodes deleted afterwards are found lost.
   */
  @Test
  void acquire_chrootWithoutTheMemory_trustedAsBeforeThenRemembersTheNamespace() throws Exception {
    TestZooKeeper.putInService(TestZooKeeper.SHARED, root);
    open().acquire(request("a", 2_000, LeaseLimits.DEFAULT));
    deleteNodes("/registry/ns");

    Lease b = open().acquire(request("b", 2_000, LeaseLimits.DEFAULT));
    assertThat(b.highWaterMillis()).isLessThan(b.coordinatorNowMillis());
    try (ZooKeeper zk = TestZooKeeper.client(TestZooKeeper.SHARED)) {
      assertThat(zk.exists(root + "/registry/ns/ns", false)).isNotNull();
    }

    deleteNodes("/ns/ns");
    Lease next = open().acquire(request("next", 2_000, LeaseLimits.DEFAULT));
    assertThat(next.highWaterMillis())
        .isGreaterThanOrEqualTo(next.coordinatorNowMillis() + DEFAULT_WAIT);
    assertThat(next.startReason()).contains("the chroot created it");
  }

  @Test
  void acquire_newChroot_waitsOutTheLimitsNamingWhy() {
    Lease l = open().acquire(request("first", 2_000, LeaseLimits.DEFAULT));

    assertThat(l.highWaterMillis()).isGreaterThanOrEqualTo(l.coordinatorNowMillis() + DEFAULT_WAIT);
    assertThat(l.startReason()).contains("ZooKeeper has no state under the chroot");
  }

  @Test
  void acquire_afterTheChrootsNodesWereDeleted_newcomerWithAShortTtlStartsAfterTheLimits()
      throws Exception {
    TestZooKeeper.putInService(TestZooKeeper.SHARED, root);
    ZooKeeperLeaseCoordinator old = open();
    Lease held = old.acquire(request("old", 10_000, LeaseLimits.DEFAULT));
    deleteNodes("/registry", "/written", "/ns");

    Lease next = open().acquire(request("new", 1_000, LeaseLimits.DEFAULT));

    assertThat(next.nodeId()).isEqualTo(held.nodeId());
    assertThat(next.highWaterMillis())
        .isGreaterThanOrEqualTo(next.coordinatorNowMillis() + DEFAULT_WAIT);
    assertThat(next.startReason()).contains("no state under the chroot");
    assertThatThrownBy(() -> old.renew(held, terms(10_000)))
        .isInstanceOf(LeaseTakenException.class)
        .hasMessageContaining("lost or rolled back its writes");
  }

  /**
   * A renewal whose record another holder took while its session lives proves the ensemble lost
   * writes: it fences, and a newcomer of another namespace, which looks new, waits out the loss.
   */
  @Test
  void renew_recordGoneWhileTheSessionLives_fencesAndNewcomersOfAnyNamespaceWait()
      throws Exception {
    TestZooKeeper.putInService(TestZooKeeper.SHARED, root);
    ZooKeeperLeaseCoordinator holder = open();
    Lease held = holder.acquire(request("holder", 10_000, LeaseLimits.DEFAULT));
    deleteNodes("/ns/ns/ids/" + held.nodeId(), "/ns/ns/held/" + held.nodeId());

    assertThatThrownBy(() -> holder.renew(held, terms(10_000)))
        .isInstanceOf(LeaseTakenException.class)
        .hasMessageContaining("its record is gone")
        .hasMessageContaining("newcomers start after");
    long now = System.currentTimeMillis();
    Lease other =
        open()
            .acquire(new AcquireRequest("other", 4, 0, 0, "x", terms(2_000), LeaseLimits.DEFAULT));
    assertThat(other.highWaterMillis()).isGreaterThanOrEqualTo(now + DEFAULT_WAIT - 1_000);
    assertThat(other.startReason()).contains("lost the chroot's state");
  }

  /**
   * The namespace's nodes deleted under a live holder and made again by a newcomer: the new nodes'
   * versions start at 0 again, as the holder's did. The holder's renewal must not write them (it
   * fences), and the newcomer keeps its record and renews.
   */
  @Test
  void renew_namespaceMadeAgainByANewcomer_doesNotWriteTheNewcomersNodes() throws Exception {
    TestZooKeeper.putInService(TestZooKeeper.SHARED, root);
    ZooKeeperLeaseCoordinator holder = open();
    Lease a = holder.acquire(request("a", 10_000, LeaseLimits.DEFAULT));
    deleteNodes("/ns/ns");
    ZooKeeperLeaseCoordinator newcomer = open();
    Lease b = newcomer.acquire(request("b", 10_000, LeaseLimits.DEFAULT));
    assertThat(b.nodeId()).isEqualTo(a.nodeId());

    assertThatThrownBy(() -> holder.renew(a, terms(10_000)))
        .isInstanceOf(LeaseTakenException.class);

    try (ZooKeeper zk = TestZooKeeper.client(TestZooKeeper.SHARED)) {
      String record =
          new String(
              zk.getData(root + "/ns/ns/ids/" + b.nodeId(), false, null),
              java.nio.charset.StandardCharsets.UTF_8);
      assertThat(record).as("the newcomer's record").contains(b.token()).doesNotContain(a.token());
    }
    Lease renewed = newcomer.renew(b, terms(10_000));
    assertThat(renewed.nodeId()).isEqualTo(b.nodeId());
  }

  /**
   * A renewal that the ensemble applied but answered too late leaves the nodes one version ahead of
   * what the holder knows, written by its own session with its own token: the next renewal takes
   * them up, is no loss, and records none.
   */
  @Test
  void renew_afterARenewalAppliedButNotAnswered_renewsAndRecordsNoLoss() throws Exception {
    TestZooKeeper.putInService(TestZooKeeper.SHARED, root);
    ZooKeeperLeaseCoordinator holder = open();
    Lease held = holder.acquire(request("holder", 10_000, LeaseLimits.DEFAULT));
    try (ZooKeeper zk = TestZooKeeper.client(TestZooKeeper.SHARED)) {
      for (String node : List.of("/ns/ns/held/", "/ns/ns/ids/")) {
        String path = root + node + held.nodeId();
        zk.setData(path, zk.getData(path, false, null), -1); // as the unanswered renewal did
      }
    }

    Lease renewed = holder.renew(held, terms(10_000));

    assertThat(renewed.nodeId()).isEqualTo(held.nodeId());
    Lease other =
        open()
            .acquire(new AcquireRequest("other", 4, 0, 0, "x", terms(2_000), LeaseLimits.DEFAULT));
    assertThat(other.startReason()).isEmpty();
  }

  @Test
  void acquire_namespaceWithoutAWriteForItsMaxTtl_isDistrustedLikeALostOne() throws Exception {
    TestZooKeeper.putInService(TestZooKeeper.SHARED, root);
    ZooKeeperLeaseCoordinator c = open();
    c.release(c.acquire(request("a", 1_000, SHORT)), Long.MIN_VALUE);
    Thread.sleep(1_500);

    Lease l = c.acquire(request("a", 1_000, SHORT));

    assertThat(l.startReason()).containsPattern("no write (to the namespace|under the chroot)");
    assertThat(l.highWaterMillis()).isGreaterThanOrEqualTo(l.coordinatorNowMillis() + 1_500);
  }

  @Test
  void acquire_recordDeletedWhileTheNamespaceIsInService_waitsOutTheLoss() throws Exception {
    TestZooKeeper.putInService(TestZooKeeper.SHARED, root);
    ZooKeeperLeaseCoordinator c = open();
    Lease a = c.acquire(request("a", 2_000, LeaseLimits.DEFAULT));
    Lease b = c.acquire(request("b", 2_000, LeaseLimits.DEFAULT));
    c.release(a, Long.MIN_VALUE);
    c.release(b, Long.MIN_VALUE);
    deleteNodes("/ns/ns/ids/" + a.nodeId());

    Lease next = c.acquire(request("c", 2_000, LeaseLimits.DEFAULT));

    assertThat(next.startReason()).contains("records are missing (1 of 2)");
    assertThat(next.highWaterMillis())
        .isGreaterThanOrEqualTo(next.coordinatorNowMillis() + DEFAULT_WAIT);
  }

  @Test
  void acquire_otherLimitsWhileAHolderLives_refusedNamingBoth_thenTakenOnceNoneLives() {
    TestZooKeeper.putInService(TestZooKeeper.SHARED, root);
    ZooKeeperLeaseCoordinator c = open();
    Lease fleet = c.acquire(request("fleet", 2_000, SHORT));

    assertThatThrownBy(() -> open().acquire(request("other", 2_000, LeaseLimits.DEFAULT)))
        .isInstanceOf(LeaseTermsException.class)
        .hasMessageContaining("maxTtl 1s, maxSkew 500ms")
        .hasMessageContaining("maxTtl 30s, maxSkew 5s");
    c.release(fleet, Long.MIN_VALUE);
    Lease other = open().acquire(request("other", 2_000, LeaseLimits.DEFAULT));
    assertThat(other.nodeId()).isNotNegative();
  }
}
