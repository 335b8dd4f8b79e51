package io.snowid.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.LeaseOption;
import io.etcd.jetcd.options.PutOption;
import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseTerms;
import io.snowid.lease.RegistryUnavailableException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An acquisition in steady state (a spare etcd lease ready, the namespace's view up to date) is one
 * request, the transaction; and neither the view nor the spare is trusted: a key written behind the
 * view's back, or a spare revoked by another client, costs a retry, never a wrong lease. What the
 * coordinator sends is seen on the wire ({@link EtcdWire}), on the shared etcd.
 */
@Tag("integration")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EtcdAcquisitionRoundTripTest {
  private static final String PREFIX = TestEtcd.uniquePrefix();
  private static final String URI = TestEtcd.shared().uri() + "?prefix=" + PREFIX;
  private static final Duration TTL = Duration.ofSeconds(10);

  private final String namespace = "rt-" + UUID.randomUUID().toString().substring(0, 8);
  private final EtcdWire wire = new EtcdWire();

  @TempDir Path dir;

  @BeforeEach
  void putThePrefixInService() {
    TestEtcd.shared().putInService(PREFIX);
  }

  @AfterAll
  static void deleteThePrefix() {
    TestEtcd.shared().deletePrefix(PREFIX);
  }

  private EtcdLeaseCoordinator open() {
    return EtcdLeaseCoordinator.open(URI, List.of(wire));
  }

  private AcquireRequest request(String instance, Duration ttl) {
    long now = System.currentTimeMillis();
    return new AcquireRequest(namespace, 8, instance, new LeaseTerms(ttl, now, now + 1_000));
  }

  /** The revision the acquisition's or renewal's transaction wrote at. */
  private static long revision(Lease l) {
    return EtcdToken.parse(l.token()).markRevision();
  }

  private static long etcdLease(Lease l) {
    return EtcdToken.parse(l.token()).etcdLease();
  }

  /**
   * The first acquisition: its lease granted, then the spare; once the spare is there and the view
   * has the acquisition's write, the next acquisition may be one round trip.
   */
  private Lease firstAcquisition(EtcdLeaseCoordinator c, Duration ttl) throws Exception {
    Lease l = c.acquire(request("first", ttl));
    wire.awaitGrants(2);
    wire.awaitWatched(2, revision(l));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!c.oneRoundTripReady(namespace, ttl)) {
      assertThat(System.nanoTime()).as("the spare and the view ready").isLessThan(deadline);
      Thread.sleep(5);
    }
    return l;
  }

  private String key(String rest) {
    return PREFIX + "/ns/" + namespace + "/" + rest;
  }

  private static KeyValue get(Client client, String key) throws Exception {
    List<KeyValue> kvs =
        client
            .getKVClient()
            .get(TestEtcd.bytes(key), GetOption.DEFAULT)
            .get(5, TimeUnit.SECONDS)
            .getKvs();
    return kvs.isEmpty() ? null : kvs.get(0);
  }

  private static long ttlLeft(Client client, long etcdLease) throws Exception {
    return client
        .getLeaseClient()
        .timeToLive(etcdLease, LeaseOption.DEFAULT)
        .get(5, TimeUnit.SECONDS)
        .getTTL();
  }

  @Test
  void acquire_steadyState_sendsOnlyTheTransactionBeforeItsAnswer() throws Exception {
    try (EtcdLeaseCoordinator c = open()) {
      firstAcquisition(c, TTL);
      int from = wire.size();

      Lease l = c.acquire(request("second", TTL));

      List<EtcdWire.Entry> log = wire.since(from);
      int answer = log.indexOf(new EtcdWire.Entry("KV/Txn", true, ""));
      assertThat(answer).as("the transaction's answer in %s", log).isPositive();
      assertThat(log.subList(0, answer))
          .as("sent before the acquisition had its answer, of %s", log)
          .hasSize(1)
          .allMatch(e -> e.method().equals("KV/Txn") && e.detail().contains("compares"));
      assertThat(EtcdWire.of(log, "KV/Txn")).as("transactions in %s", log).hasSize(2);
      assertThat(log.subList(answer, log.size()))
          .as("after the answer: the spare's replacement only, in %s", log)
          .allMatch(e -> e.method().equals("KV/Txn") || e.method().equals("Lease/LeaseGrant"));
      assertThat(etcdLease(l)).isEqualTo(wire.granted().get(1)); // the spare
    }
  }

  @Test
  void acquire_firstInANamespace_readsBesideItsGrantThenSendsTheTransactionThenGrantsASpare()
      throws Exception {
    try (EtcdLeaseCoordinator c = open()) {
      int from = wire.size();

      c.acquire(request("first", TTL));
      wire.awaitGrants(2);

      List<EtcdWire.Entry> log =
          wire.since(from).stream().filter(e -> !e.method().startsWith("Watch")).toList();
      List<EtcdWire.Entry> sent = log.stream().filter(e -> !e.answer()).toList();
      // sent together (an answer may come back before the second is on the wire: not asserted)
      assertThat(sent.subList(0, 2))
          .as("sent first, of %s", log)
          .containsExactlyInAnyOrder(
              new EtcdWire.Entry("Lease/LeaseGrant", false, ""),
              new EtcdWire.Entry("KV/Txn", false, "(a read)"));
      int transaction = log.indexOf(sent.get(2));
      assertThat(log.subList(0, transaction).stream().filter(EtcdWire.Entry::answer))
          .as("the transaction waits for both answers, of %s", log)
          .hasSize(2);
      assertThat(sent.subList(2, sent.size()))
          .as("then the transaction, then the spare's grant, of %s", log)
          .hasSize(2)
          .satisfies(
              s -> {
                assertThat(s.get(0).method()).isEqualTo("KV/Txn");
                assertThat(s.get(0).detail()).contains("compares");
                assertThat(s.get(1).method()).isEqualTo("Lease/LeaseGrant");
              });
    }
  }

  /**
   * A held key another client wrote while the view heard nothing (its watches held back): the
   * acquisition judges id 1 free on the view, the transaction finds it held and reads, and it takes
   * id 2; the other client's key is untouched.
   */
  @Test
  void acquire_heldKeyWrittenBehindTheViewsBack_takesTheNextIdNotTheHeldOne() throws Exception {
    try (EtcdLeaseCoordinator c = open();
        Client other = TestEtcd.shared().client()) {
      assertThat(firstAcquisition(c, TTL).nodeId()).isZero();
      wire.close();
      long otherLease = other.getLeaseClient().grant(30).get(5, TimeUnit.SECONDS).getID();
      other
          .getKVClient()
          .put(
              TestEtcd.bytes(key("held/1")),
              TestEtcd.bytes("other-token other"),
              PutOption.builder().withLeaseId(otherLease).build())
          .get(5, TimeUnit.SECONDS);
      int from = wire.size();

      Lease l = c.acquire(request("second", TTL));
      wire.open();

      assertThat(l.nodeId()).isEqualTo(2);
      assertThat(get(other, key("held/1")).getValue())
          .isEqualTo(TestEtcd.bytes("other-token other"));
      List<EtcdWire.Entry> sent =
          EtcdWire.of(wire.since(from), "KV/Txn").stream().filter(e -> !e.answer()).toList();
      assertThat(sent)
          .as("a transaction judged on the view, then one judged on its Else branch's read")
          .hasSize(2)
          .allMatch(e -> e.detail().contains("compares"));
      other.getLeaseClient().revoke(otherLease).get(5, TimeUnit.SECONDS);
    }
  }

  /**
   * An id's record raised by another client while the view heard nothing (a holder released id 1
   * having issued up to ten minutes ahead): the acquisition judges id 1 free and unrecorded on the
   * view, the transaction finds the record changed, and the id is taken after the new mark.
   */
  @Test
  void acquire_markRaisedBehindTheViewsBack_startsAfterTheNewMark() throws Exception {
    try (EtcdLeaseCoordinator c = open();
        Client other = TestEtcd.shared().client()) {
      assertThat(firstAcquisition(c, TTL).nodeId()).isZero();
      wire.close();
      long issuedUpTo = System.currentTimeMillis() + 600_000;
      other
          .getKVClient()
          .put(TestEtcd.bytes(key("mark/1")), TestEtcd.bytes("other " + issuedUpTo + " - - 1"))
          .get(5, TimeUnit.SECONDS);
      int from = wire.size();

      Lease l = c.acquire(request("second", TTL));
      wire.open();

      assertThat(l.nodeId()).isEqualTo(1);
      assertThat(l.highWaterMillis()).isGreaterThanOrEqualTo(issuedUpTo);
      assertThat(EtcdWire.of(wire.since(from), "KV/Txn").stream().filter(e -> !e.answer()).count())
          .as("a transaction judged on the view, then one on its Else branch's read")
          .isEqualTo(2);
    }
  }

  /**
   * The namespace's newest write and records deleted by hand (its limits kept) while its view
   * follows: the prefix remembers creating it (a key no watch follows), so the newcomer finds the
   * loss, as a read would, and starts after the bound instead of at once.
   */
  @Test
  void acquire_stateDeletedWhileTheViewFollows_newcomerWaitsOutTheLoss() throws Exception {
    try (EtcdLeaseCoordinator c = open();
        Client other = TestEtcd.shared().client()) {
      Lease first = firstAcquisition(c, TTL);
      long deleted = 0;
      for (String k : List.of("written", "held/" + first.nodeId(), "mark/" + first.nodeId())) {
        deleted =
            other
                .getKVClient()
                .delete(TestEtcd.bytes(key(k)))
                .get(5, TimeUnit.SECONDS)
                .getHeader()
                .getRevision();
      }
      wire.awaitWatched(1, deleted);
      long before = System.currentTimeMillis();

      Lease l = c.acquire(request("second", TTL));

      assertThat(l.highWaterMillis())
          .as("started after maxTtl + maxSkew + 1 s (30 s + 5 s + 1 s)")
          .isGreaterThanOrEqualTo(before + 36_000);
      assertThat(l.startReason()).contains("the prefix created it");
    }
  }

  /**
   * The spare etcd lease revoked by another client before the acquisition used it: its transaction
   * is refused (lease not found, nothing written), a fresh lease is granted, and the id is held on
   * that live lease.
   */
  @Test
  void acquire_spareRevokedByAnotherClient_holdsTheIdOnAFreshLiveLease() throws Exception {
    try (EtcdLeaseCoordinator c = open();
        Client other = TestEtcd.shared().client()) {
      firstAcquisition(c, TTL);
      long spare = wire.granted().get(1);
      other.getLeaseClient().revoke(spare).get(5, TimeUnit.SECONDS);
      int from = wire.size();

      Lease l = c.acquire(request("second", TTL));

      List<String> sent =
          wire.since(from).stream().filter(e -> !e.answer()).map(EtcdWire.Entry::method).toList();
      assertThat(sent)
          .as("the transaction on the spare, a grant, the transaction again")
          .startsWith("KV/Txn", "Lease/LeaseGrant", "KV/Txn");
      assertThat(etcdLease(l)).isNotEqualTo(spare);
      KeyValue held = get(other, key("held/" + l.nodeId()));
      assertThat(held).isNotNull();
      assertThat(held.getLease()).isEqualTo(etcdLease(l));
      assertThat(ttlLeft(other, etcdLease(l)))
          .as("seconds left of the id's etcd lease")
          .isPositive();
      assertThat(ttlLeft(other, spare)).as("the revoked spare (-1: none)").isEqualTo(-1);
    }
  }

  /**
   * A spare whose rest no longer covers the lease's ttl (2 s asked, 3 s granted, more than 1 s old)
   * is not used: it is revoked and the acquisition grants a lease first.
   */
  @Test
  void acquire_spareTooOldForTheTtl_isRevokedAndAFreshLeaseGranted() throws Exception {
    Duration ttl = Duration.ofSeconds(2);
    try (EtcdLeaseCoordinator c = open();
        Client other = TestEtcd.shared().client()) {
      firstAcquisition(c, ttl);
      long spare = wire.granted().get(1);
      Thread.sleep(1_200); // it ages past its 1 s of headroom
      int from = wire.size();

      Lease l = c.acquire(request("second", ttl));

      List<EtcdWire.Entry> sent = wire.since(from).stream().filter(e -> !e.answer()).toList();
      assertThat(sent.subList(0, 2))
          .as("before the transaction, of %s (sent together: in either order)", sent)
          .containsExactlyInAnyOrder(
              new EtcdWire.Entry("Lease/LeaseRevoke", false, "" + spare),
              new EtcdWire.Entry("Lease/LeaseGrant", false, ""));
      assertThat(sent.get(2).method()).isEqualTo("KV/Txn");
      assertThat(etcdLease(l)).isNotEqualTo(spare).isEqualTo(wire.granted().get(2));
      assertThat(ttlLeft(other, spare)).as("the old spare (-1: none)").isEqualTo(-1);
    }
  }

  @Test
  void close_revokesTheSpareLease() throws Exception {
    EtcdLeaseCoordinator c = open();
    firstAcquisition(c, TTL);
    long spare = wire.granted().get(1);

    c.close();

    try (Client other = TestEtcd.shared().client()) {
      assertThat(ttlLeft(other, spare)).as("the spare (-1: none)").isEqualTo(-1);
    }
  }

  /**
   * A view whose watches ended (the member stopped and started: the streams failed) is not used:
   * the next acquisition reads first, and starts another view.
   */
  @Test
  void acquire_afterTheWatchesFailed_readsInsteadOfUsingTheView() throws Exception {
    try (TestEtcd etcd = TestEtcd.startPrivate(dir)) {
      etcd.putInService("snowid");
      try (EtcdLeaseCoordinator c = EtcdLeaseCoordinator.open(etcd.uri(), List.of(wire))) {
        firstAcquisition(c, TTL);
        etcd.stop();
        etcd.start();
        etcd.putInService("snowid"); // keeps the prefix in service over the restart
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
          int from = wire.size();
          try {
            c.acquire(request("second", TTL));
          } catch (RegistryUnavailableException e) {
            assertThat(System.nanoTime()).as(e.getMessage()).isLessThan(deadline);
            Thread.sleep(100);
            continue;
          }
          List<EtcdWire.Entry> sent = wire.since(from).stream().filter(e -> !e.answer()).toList();
          assertThat(sent.stream().filter(e -> e.method().equals("KV/Txn")).findFirst())
              .as("the acquisition's first transaction, of %s", sent)
              .hasValueSatisfying(e -> assertThat(e.detail()).isEqualTo("(a read)"));
          assertThat(sent)
              .as("a new view's watches")
              .contains(new EtcdWire.Entry("Watch/Watch", false, "(a watch)"));
          break;
        }
      }
    }
  }
}
