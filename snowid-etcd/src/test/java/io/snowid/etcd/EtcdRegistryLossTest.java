package io.snowid.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.options.DeleteOption;
import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseCoordinators;
import io.snowid.lease.LeaseLimits;
import io.snowid.lease.LeaseTakenException;
import io.snowid.lease.LeaseTerms;
import io.snowid.lease.RegistryUnavailableException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An etcd that lost its state, or went back to an older one, never lets a newcomer start before
 * what a holder it forgot may issue: {@code lostUntil = found + maxTtl + maxSkew + 1s}
 * (docs/design.md, "A registry that lost its state", "The etcd:// backend").
 */
@Tag("integration")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class EtcdRegistryLossTest {
  // Long enough that a stop, a copy of the data directory and a start of a private member on a
  // loaded machine do not outlast it: the tests are about rollbacks, not expiry.
  private static final Duration TTL = Duration.ofSeconds(15);
  private static final LeaseLimits LIMITS =
      new LeaseLimits(Duration.ofSeconds(30), Duration.ofSeconds(5));
  private static final long LOSS_WAIT = 30_000 + 5_000 + 1_000;

  private final String prefix = TestEtcd.uniquePrefix();
  private final String uri = TestEtcd.shared().uri() + "?prefix=" + prefix;

  @TempDir Path dir;

  @AfterEach
  void deleteThePrefix() {
    TestEtcd.shared().deletePrefix(prefix);
  }

  private static Lease acquire(LeaseCoordinator c, String namespace, String instance) {
    long now = System.currentTimeMillis();
    return c.acquire(
        new AcquireRequest(
            namespace,
            8,
            0,
            0,
            instance,
            new LeaseTerms(TTL, now, now + TTL.toMillis() / 3),
            LIMITS));
  }

  @Test
  void newPrefix_firstHolderStartsAfterTheLossBound_sayingWhy() {
    try (LeaseCoordinator c = LeaseCoordinators.open(uri)) {
      long before = System.currentTimeMillis();
      Lease l = acquire(c, "orders", "first");

      assertThat(l.highWaterMillis()).isGreaterThanOrEqualTo(before + LOSS_WAIT);
      assertThat(l.startReason()).contains("no state for the prefix");
    }
  }

  @Test
  void prefixInService_newNamespaceStartsAtOnce() {
    TestEtcd.shared().putInService(prefix);
    try (LeaseCoordinator c = LeaseCoordinators.open(uri)) {
      Lease l = acquire(c, "orders", "first");

      assertThat(l.highWaterMillis()).isLessThan(System.currentTimeMillis() + 2_000);
      assertThat(l.startReason()).isEmpty();
    }
  }

  /**
   * A prefix of the version before the memory of created namespaces (no {@code P/created/NS}): a
   * namespace with state is trusted as before, and the acquisition adds the memory, so that the
   * namespace's keys deleted afterwards are found lost.
   */
  @Test
  void prefixWithoutTheMemory_trustedAsBeforeThenRemembersTheNamespace() throws Exception {
    TestEtcd.shared().putInService(prefix);
    try (LeaseCoordinator c = LeaseCoordinators.open(uri)) {
      acquire(c, "orders", "a");
      deleteKeys(prefix + "/created/orders");

      Lease b = acquire(c, "orders", "b");
      assertThat(b.highWaterMillis()).isLessThan(System.currentTimeMillis() + 2_000);
      assertThat(b.startReason()).isEmpty();

      TestEtcd.shared().deletePrefix(prefix + "/ns/orders");
      long before = System.currentTimeMillis();
      Lease next = acquire(c, "orders", "next");
      assertThat(next.highWaterMillis()).isGreaterThanOrEqualTo(before + LOSS_WAIT);
      assertThat(next.startReason()).contains("the prefix created it");
    }
  }

  @Test
  void namespaceStateDeleted_newcomerWaitsOutTheForgottenHolder() throws Exception {
    TestEtcd.shared().putInService(prefix);
    try (LeaseCoordinator c = LeaseCoordinators.open(uri)) {
      acquire(c, "orders", "forgotten");
      deleteKeys(prefix + "/ns/orders/terms", prefix + "/ns/orders/written");

      long before = System.currentTimeMillis();
      Lease next = acquire(c, "orders", "newcomer");

      assertThat(next.highWaterMillis()).isGreaterThanOrEqualTo(before + LOSS_WAIT);
      assertThat(next.startReason()).contains("records have no state");
    }
  }

  @Test
  void recordDeleted_newcomerWaitsOutTheForgottenHolder() throws Exception {
    TestEtcd.shared().putInService(prefix);
    try (LeaseCoordinator c = LeaseCoordinators.open(uri)) {
      Lease a = acquire(c, "orders", "a");
      acquire(c, "orders", "b");
      deleteKeys(
          prefix + "/ns/orders/mark/" + a.nodeId(), prefix + "/ns/orders/held/" + a.nodeId());

      long before = System.currentTimeMillis();
      Lease next = acquire(c, "orders", "newcomer");

      assertThat(next.nodeId()).isEqualTo(a.nodeId());
      assertThat(next.highWaterMillis()).isGreaterThanOrEqualTo(before + LOSS_WAIT);
      assertThat(next.startReason()).contains("records are missing (1 of 2)");
    }
  }

  @Test
  void heldKeyDeletedUnderALiveHolder_itsRenewalFencesAndNewcomersWait() throws Exception {
    TestEtcd.shared().putInService(prefix);
    try (LeaseCoordinator c = LeaseCoordinators.open(uri)) {
      Lease a = acquire(c, "orders", "a");
      deleteKeys(prefix + "/ns/orders/held/" + a.nodeId());
      long now = System.currentTimeMillis();

      assertThatThrownBy(() -> c.renew(a, new LeaseTerms(TTL, now, now + TTL.toMillis() / 3)))
          .isInstanceOf(LeaseTakenException.class)
          .hasMessageContaining("gone before its expiry");

      Lease next = acquire(c, "other", "newcomer");
      assertThat(next.highWaterMillis()).isGreaterThanOrEqualTo(now + LOSS_WAIT);
      assertThat(next.startReason()).contains("lost the prefix's state");
    }
  }

  /**
   * A member restarted from an older copy of its data directory: its revision goes back. A holder
   * that renewed after the copy fences at its next renewal and records the loss; a newcomer starts
   * after the forgotten holder's bound.
   */
  @Test
  void restoredOlderDataDirectory_holderFences_newcomerStartsAfterTheBound() throws Exception {
    try (TestEtcd etcd = TestEtcd.startPrivate(dir)) {
      String privateUri = etcd.uri() + "?prefix=p";
      etcd.putInService("p");
      try (LeaseCoordinator holder = LeaseCoordinators.open(privateUri)) {
        Lease l = acquire(holder, "orders", "holder");
        etcd.stop();
        copy(etcd.dataDir(), dir.resolve("snapshot"));
        etcd.start();
        for (int i = 0; i < 3; i++) {
          l = renewWhenAnswering(holder, l);
        }
        etcd.stop();
        replace(etcd.dataDir(), dir.resolve("snapshot"));
        etcd.start();

        Lease last = l;
        long now = System.currentTimeMillis();
        assertThatThrownBy(() -> renewWhenAnswering(holder, last))
            .isInstanceOf(LeaseTakenException.class)
            .hasMessageContaining("rolled back");

        try (LeaseCoordinator newcomer = LeaseCoordinators.open(privateUri)) {
          Lease next = acquire(newcomer, "orders", "newcomer");
          assertThat(next.highWaterMillis()).isGreaterThanOrEqualTo(now + LOSS_WAIT);
          assertThat(next.startReason()).isNotEmpty();
        }
        // the fenced holder's coordinator goes on in the new history: it leases again, after it
        Lease again = acquire(holder, "orders", "holder");
        assertThat(again.highWaterMillis()).isGreaterThanOrEqualTo(now + LOSS_WAIT);
      }
    }
  }

  /**
   * A cluster restored from a snapshot (etcdctl snapshot restore: a new cluster id): a newcomer
   * finds the prefix written by another cluster and starts after the bound; the running holder's
   * renewal sees the new cluster id and fences.
   */
  @Test
  void snapshotRestoredAsANewCluster_newcomerStartsAfterTheBound_holderFences() throws Exception {
    try (TestEtcd etcd = TestEtcd.startPrivate(dir)) {
      String privateUri = etcd.uri() + "?prefix=p";
      etcd.putInService("p");
      try (LeaseCoordinator holder = LeaseCoordinators.open(privateUri)) {
        Lease l = acquire(holder, "orders", "holder");
        etcd.snapshotSave(dir.resolve("snapshot.db"));
        l = renewWhenAnswering(holder, l);
        etcd.stop();
        etcd.snapshotRestore(dir.resolve("snapshot.db"));
        etcd.start();

        long now = System.currentTimeMillis();
        try (LeaseCoordinator newcomer = LeaseCoordinators.open(privateUri)) {
          Lease next = acquire(newcomer, "orders", "newcomer");
          assertThat(next.highWaterMillis()).isGreaterThanOrEqualTo(now + LOSS_WAIT);
          assertThat(next.startReason()).contains("written by etcd cluster");
        }
        Lease last = l;
        assertThatThrownBy(() -> renewWhenAnswering(holder, last))
            .isInstanceOf(LeaseTakenException.class)
            .hasMessageContaining("rolled back");
      }
    }
  }

  private static Lease renewWhenAnswering(LeaseCoordinator c, Lease l) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (true) {
      long now = System.currentTimeMillis();
      try {
        return c.renew(l, new LeaseTerms(TTL, now, now + TTL.toMillis() / 3));
      } catch (RegistryUnavailableException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(100);
      }
    }
  }

  private void deleteKeys(String... keys) throws Exception {
    try (Client client = TestEtcd.shared().client()) {
      for (String k : keys) {
        client
            .getKVClient()
            .delete(TestEtcd.bytes(k), DeleteOption.DEFAULT)
            .get(5, TimeUnit.SECONDS);
      }
    }
  }

  private static void copy(Path from, Path to) throws Exception {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  private static void replace(Path dataDir, Path snapshot) throws Exception {
    try (Stream<Path> files = Files.walk(dataDir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
    copy(snapshot, dataDir);
  }
}
