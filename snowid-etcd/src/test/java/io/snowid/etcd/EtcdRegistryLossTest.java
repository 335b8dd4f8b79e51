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
import java.time.Instant;
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
    return acquire(c, namespace, instance, LIMITS);
  }

  private static Lease acquire(
      LeaseCoordinator c, String namespace, String instance, LeaseLimits limits) {
    long now = System.currentTimeMillis();
    return c.acquire(
        new AcquireRequest(
            namespace,
            8,
            0,
            0,
            instance,
            new LeaseTerms(TTL, now, now + TTL.toMillis() / 3),
            limits));
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

  /** Limits whose maxSkew is short enough for a test to wait it out. */
  private static final LeaseLimits SKEW_1S =
      new LeaseLimits(Duration.ofSeconds(30), Duration.ofSeconds(1));

  /**
   * A holder ({@code cut}) and a second process ({@code finder}) renew after a copy of the data
   * directory; the holder's last answer comes more than maxSkew before etcd goes back to the copy;
   * the finder's renewal finds the rollback first and records it. Returns the lostAt it recorded,
   * with the holder's coordinator and lease in {@code cut}.
   */
  private long rollbackFoundByAnotherProcess(TestEtcd etcd, LeaseCoordinator cut, Lease[] held)
      throws Exception {
    try (LeaseCoordinator finder = LeaseCoordinators.open(etcd.uri() + "?prefix=p")) {
      held[0] = acquire(cut, "orders", "cut", SKEW_1S);
      Lease f = acquire(finder, "orders", "finder", SKEW_1S);
      etcd.stop();
      copy(etcd.dataDir(), dir.resolve("snapshot"));
      etcd.start();
      for (int i = 0; i < 5; i++) {
        held[0] = renewWhenAnswering(cut, held[0]);
      }
      f = renewWhenAnswering(finder, f);
      Thread.sleep(SKEW_1S.maxSkew().toMillis() + 500);
      etcd.stop();
      replace(etcd.dataDir(), dir.resolve("snapshot"));
      etcd.start();
      Lease last = f;
      assertThatThrownBy(() -> renewWhenAnswering(finder, last))
          .isInstanceOf(LeaseTakenException.class)
          .hasMessageContaining("rolled back");
    }
    long lostAt = lostAt(etcd);
    Thread.sleep(200); // the holder's clock is past the record when it finds the rollback
    return lostAt;
  }

  private static long lostAt(TestEtcd etcd) throws Exception {
    try (Client client = etcd.client()) {
      var kvs =
          client
              .getKVClient()
              .get(TestEtcd.bytes("p/reg/lostAt"))
              .get(5, TimeUnit.SECONDS)
              .getKvs();
      assertThat(kvs).hasSize(1);
      return Long.parseLong(
          kvs.get(0).getValue().toString(java.nio.charset.StandardCharsets.UTF_8));
    }
  }

  // A process cut off while another found the rollback found it again when it came back, and
  // newcomers waited a whole loss wait from then (the 600 s etcd run: 15.7 s where 8 s were due).
  @Test
  void renew_afterAnotherProcessRecordedTheRollback_fencesAndLeavesNewcomersItsLostUntil()
      throws Exception {
    try (TestEtcd etcd = TestEtcd.startPrivate(dir)) {
      etcd.putInService("p");
      try (LeaseCoordinator cut = LeaseCoordinators.open(etcd.uri() + "?prefix=p")) {
        Lease[] held = new Lease[1];
        long lostAt = rollbackFoundByAnotherProcess(etcd, cut, held);

        renew_fencesLeavingTheRecordedLoss(etcd, cut, held[0], lostAt, "rolled back");
      }
    }
  }

  // The same after the new history's writes took etcd's revision past the holder's: only its own
  // record, at an older revision than its last write got, shows the rollback (the 600 s etcd run:
  // a slot partitioned across a rollback recorded it anew 11 s later, 7.7 s where 5 s were due).
  @Test
  void renew_afterAnotherProcessRecordedTheRollbackAndTheRevisionPassedTheHolders_takesItOn()
      throws Exception {
    try (TestEtcd etcd = TestEtcd.startPrivate(dir)) {
      etcd.putInService("p");
      try (LeaseCoordinator cut = LeaseCoordinators.open(etcd.uri() + "?prefix=p")) {
        Lease[] held = new Lease[1];
        long lostAt = rollbackFoundByAnotherProcess(etcd, cut, held);
        try (Client client = etcd.client()) {
          for (int i = 0; i < 20; i++) {
            client.getKVClient().put(TestEtcd.bytes("other/" + i), TestEtcd.bytes("x")).get();
          }
        }

        renew_fencesLeavingTheRecordedLoss(
            etcd, cut, held[0], lostAt, "its record went back from revision");
      }
    }
  }

  /** The holder's renewal fences saying {@code why}, and leaves newcomers the recorded loss. */
  private static void renew_fencesLeavingTheRecordedLoss(
      TestEtcd etcd, LeaseCoordinator cut, Lease held, long lostAt, String why) throws Exception {
    assertThatThrownBy(() -> renewWhenAnswering(cut, held))
        .isInstanceOf(LeaseTakenException.class)
        .hasMessageContaining(why)
        .hasMessageContaining(
            "newcomers start after " + Instant.ofEpochMilli(SKEW_1S.lostUntilMillis(lostAt)));
    assertThat(lostAt(etcd)).isEqualTo(lostAt);
  }

  @Test
  void acquire_afterAnotherProcessRecordedTheRollback_waitsForThatLossNotANewOne()
      throws Exception {
    try (TestEtcd etcd = TestEtcd.startPrivate(dir)) {
      etcd.putInService("p");
      try (LeaseCoordinator cut = LeaseCoordinators.open(etcd.uri() + "?prefix=p")) {
        long lostAt = rollbackFoundByAnotherProcess(etcd, cut, new Lease[1]);

        Lease next = acquire(cut, "orders", "next", SKEW_1S);

        assertThat(next.highWaterMillis()).isEqualTo(SKEW_1S.lostUntilMillis(lostAt));
        assertThat(next.startReason()).contains("lost the prefix's state");
        assertThat(lostAt(etcd)).isEqualTo(lostAt);
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
