package io.snowid.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseCoordinators;
import io.snowid.lease.LeaseTerms;
import io.snowid.testkit.LeaseCoordinatorContract;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The etcd backend passes the contract every coordinator passes, on the shared etcd at
 * 127.0.0.1:2379, opened by URI through {@link java.util.ServiceLoader}. The class has a key prefix
 * of its own, deleted afterwards; it is put in service before each test, as a registry in
 * production is (the first holder of a new prefix waits out a loss: {@code EtcdRegistryLossTest}).
 */
@Tag("integration")
class EtcdLeaseCoordinatorTest extends LeaseCoordinatorContract {
  private static final String PREFIX = TestEtcd.uniquePrefix();
  private static final String URI = TestEtcd.shared().uri() + "?prefix=" + PREFIX;

  @BeforeEach
  void putThePrefixInService() {
    TestEtcd.shared().putInService(PREFIX);
  }

  @AfterAll
  static void deleteThePrefix() {
    TestEtcd.shared().deletePrefix(PREFIX);
  }

  @Override
  protected LeaseCoordinator newCoordinator() {
    return LeaseCoordinators.open(URI);
  }

  /** {@code etcdctl del --prefix PREFIX/ns/NAMESPACE/}. */
  @Override
  protected void deleteNamespace(String namespace) {
    TestEtcd.shared().deletePrefix(PREFIX + "/ns/" + namespace);
  }

  /** A process killed by SIGKILL stops keeping its etcd leases alive: closing does just that. */
  @Override
  protected void crash(LeaseCoordinator coordinator) {
    coordinator.close();
  }

  /** etcd ends a lease of ttl 2 s after 2 s without a keep-alive, checked every 500 ms. */
  @Override
  protected Duration reclaimWithin(Duration ttl) {
    return ttl.plusSeconds(3);
  }

  /**
   * A release revokes the id's etcd lease, and closing the coordinator right after it lets the
   * revocation finish (cut, the lease would linger until it expires and jetcd logs a failed retry
   * at every exit of the command).
   */
  @Test
  void release_thenClose_revokesTheEtcdLease() throws Exception {
    long etcdLease;
    try (LeaseCoordinator c = LeaseCoordinators.open(URI);
        io.etcd.jetcd.Client client = TestEtcd.shared().client()) {
      long now = System.currentTimeMillis();
      Duration ttl = Duration.ofSeconds(10);
      Lease l =
          c.acquire(new AcquireRequest(namespace, 8, "closing", new LeaseTerms(ttl, now, now)));
      java.util.List<io.etcd.jetcd.KeyValue> held =
          client
              .getKVClient()
              .get(
                  TestEtcd.bytes(PREFIX + "/ns/" + namespace + "/held/" + l.nodeId()),
                  io.etcd.jetcd.options.GetOption.DEFAULT)
              .get()
              .getKvs();
      assertThat(held).hasSize(1);
      etcdLease = held.get(0).getLease();
      assertThat(etcdLease).isNotZero();

      c.release(l, now);
      c.close();

      long ttlLeft =
          client
              .getLeaseClient()
              .timeToLive(etcdLease, io.etcd.jetcd.options.LeaseOption.DEFAULT)
              .get()
              .getTTL();
      assertThat(ttlLeft)
          .as("seconds left of the released id's etcd lease (-1: none)")
          .isEqualTo(-1);
    }
  }

  /**
   * A ttl below etcd's minimum lease (2 s by default) is granted longer by etcd; the lease still
   * claims the ttl alone, so the holder's deadline is counted from it.
   */
  @Test
  void acquire_ttlBelowEtcdsMinimum_leaseClaimsOnlyTheTtl() {
    try (LeaseCoordinator c = LeaseCoordinators.open(URI)) {
      // the connection made first: a 300 ms lease leaves its acquisition 150 ms, too little for a
      // channel's start on a loaded machine
      long before = System.currentTimeMillis();
      c.acquire(
          new AcquireRequest(
              namespace + ".warm",
              8,
              "warm",
              new LeaseTerms(Duration.ofSeconds(5), before, before)));
      long now = System.currentTimeMillis();
      Duration ttl = Duration.ofMillis(300);
      Lease l = c.acquire(new AcquireRequest(namespace, 8, "short", new LeaseTerms(ttl, now, now)));

      assertThat(l.expiresAtMillis() - l.coordinatorNowMillis()).isEqualTo(300);
      Lease renewed = c.renew(l, new LeaseTerms(ttl, now + 100, now + 100));
      assertThat(renewed.expiresAtMillis() - renewed.coordinatorNowMillis()).isEqualTo(300);
    }
  }

  @Test
  void acquire_firstIsAGrantBesideAReadThenOneTransaction_renewAKeepAliveBesideOneTransaction() {
    try (EtcdLeaseCoordinator c = (EtcdLeaseCoordinator) LeaseCoordinators.open(URI)) {
      long now = System.currentTimeMillis();
      Duration ttl = Duration.ofSeconds(2);
      long before = c.calls();
      Lease l =
          c.acquire(
              new AcquireRequest(namespace, 8, "counted", new LeaseTerms(ttl, now, now + 1000)));
      long afterAcquire = c.calls();
      c.renew(l, new LeaseTerms(ttl, now, now + 1000));
      long afterRenew = c.calls();

      // grant and read sent together, then the transaction, then the spare's grant (not waited
      // for: the steady state is EtcdAcquisitionRoundTripTest's); keep-alive and transaction
      assertThat(afterAcquire - before).isEqualTo(4);
      assertThat(afterRenew - afterAcquire).isEqualTo(2);
    }
  }
}
