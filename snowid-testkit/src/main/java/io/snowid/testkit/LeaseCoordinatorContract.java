package io.snowid.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.snowid.ClockMovedBackwardsException;
import io.snowid.Layout;
import io.snowid.Snowflake;
import io.snowid.TimeSource;
import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseCoordinators;
import io.snowid.lease.LeaseInfo;
import io.snowid.lease.LeaseLimits;
import io.snowid.lease.LeaseListing;
import io.snowid.lease.LeaseLostException;
import io.snowid.lease.LeaseOptions;
import io.snowid.lease.LeaseTakenException;
import io.snowid.lease.LeaseTerms;
import io.snowid.lease.LeaseTermsException;
import io.snowid.node.NodeIdUnavailableException;
import io.snowid.node.NodeLease;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link LeaseCoordinator} must have. A backend's test subclasses this and
 * supplies coordinators that share one registry, as separate processes would:
 *
 * <pre>{@code
 * class RedisLeaseCoordinatorTest extends LeaseCoordinatorContract {
 *   protected LeaseCoordinator newCoordinator() { return LeaseCoordinators.open(REDIS_URI); }
 *   protected void crash(LeaseCoordinator c) { ((RedisLeaseCoordinator) c).closeWithoutRelease(); }
 *   protected void deleteNamespace(String ns) { … DEL of the namespace's keys … }
 * }
 * }</pre>
 *
 * Every test works in a namespace of its own, so runs never see each other's leases.
 *
 * <p>Longer than ~500 lines because it is the one list of what a coordinator must do, one test per
 * guarantee: split, a backend would subclass several contracts and could miss one.
 */
public abstract class LeaseCoordinatorContract {
  private static final Duration TTL = Duration.ofSeconds(2);

  /**
   * How long a generator may take to fence or to resume on a loaded machine; a pass does not wait
   * it.
   */
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  private final List<AutoCloseable> opened = new ArrayList<>();
  protected final String namespace = "contract-" + UUID.randomUUID().toString().substring(0, 8);

  /** A new coordinator on the shared registry, as another process would open it. */
  protected abstract LeaseCoordinator newCoordinator();

  /**
   * Makes the holder die without releasing (as SIGKILL would): afterwards its leases must become
   * available to others once they expire (or at once, for coordinators that can tell).
   */
  protected abstract void crash(LeaseCoordinator coordinator);

  /**
   * Deletes every key (row, node, file) of {@code namespace} in the shared registry through the
   * backend's own client, as an operator's mistake would, and nothing of the registry's other
   * namespaces: its ids, its records and its own state row or key. A backend whose registry cannot
   * lose one namespace's state (nothing outside the holders can reach it) says why and does
   * nothing.
   */
  protected abstract void deleteNamespace(String namespace);

  /** How long a crashed holder's lease of {@code ttl} may stay unavailable. */
  protected Duration reclaimWithin(Duration ttl) {
    return ttl.plusSeconds(3);
  }

  private LeaseCoordinator open() {
    LeaseCoordinator c = newCoordinator();
    opened.add(c);
    return c;
  }

  @AfterEach
  void closeAll() throws Exception {
    for (AutoCloseable c : opened) {
      c.close();
    }
  }

  private static long now() {
    return System.currentTimeMillis();
  }

  private Lease acquire(LeaseCoordinator c, long size, String instance) {
    return c.acquire(
        new AcquireRequest(
            namespace, size, instance, new LeaseTerms(TTL, now(), now() + TTL.toMillis())));
  }

  @Test
  void namespaces_includeEveryNamespaceLeasedFrom() {
    LeaseCoordinator c = open();
    String other = namespace + ".other";
    acquire(c, 4, "a");
    c.acquire(
        new AcquireRequest(other, 4, "b", new LeaseTerms(TTL, now(), now() + TTL.toMillis())));

    assertThat(c.namespaces()).contains(namespace, other);
  }

  /**
   * A namespace has one set of limits while it has live holders: after a loss of the registry's
   * state a newcomer waits by its own, so a holder with larger ones must not be running then.
   */
  @Test
  void acquire_otherLimitsWhileAHolderIsLive_refusedNamingBothThenSameLimitsAccepted() {
    LeaseLimits fleet = new LeaseLimits(Duration.ofSeconds(10), Duration.ofSeconds(1));
    LeaseCoordinator a = open();
    a.acquire(limited(namespace, "a", fleet));

    LeaseCoordinator b = open();
    assertThatThrownBy(() -> b.acquire(limited(namespace, "b", LeaseLimits.DEFAULT)))
        .isInstanceOf(LeaseTermsException.class)
        .hasMessageContaining(namespace)
        .hasMessageContaining("maxTtl 10s, maxSkew 1s")
        .hasMessageContaining("maxTtl 30s, maxSkew 5s");
    assertThat(b.acquire(limited(namespace, "b", fleet)).nodeId()).isNotNegative();
    assertThat(b.acquire(limited(namespace + ".other", "b", LeaseLimits.DEFAULT)).nodeId())
        .as("another namespace has its own limits")
        .isNotNegative();
  }

  private AcquireRequest limited(String ns, String instance, LeaseLimits limits) {
    return new AcquireRequest(
        ns, 4, 0, 0, instance, new LeaseTerms(TTL, now(), now() + TTL.toMillis()), limits);
  }

  /**
   * Every key of a namespace deleted under its running holder while the registry has other writes
   * (another namespace live): the namespace looks new, but the registry remembers creating it, so a
   * newcomer either takes another id or starts after all the holder may still issue.
   */
  @Test
  void namespaceDeletedUnderRunningHolder_newcomerWaitsPastItsDeadline() {
    LeaseCoordinator fleet = open();
    String live = "live-" + UUID.randomUUID().toString().substring(0, 8);
    Lease other = fleet.acquire(new AcquireRequest(live, 4, "other", terms(now() + 1_000)));
    LeaseCoordinator holder = open();
    long deadline = now() + TTL.toMillis();
    Lease held = holder.acquire(new AcquireRequest(namespace, 4, "holder", terms(deadline)));

    deleteNamespace(namespace);
    fleet.renew(other, terms(now() + 1_000)); // the registry has a write after the deletion
    Lease next = open().acquire(new AcquireRequest(namespace, 4, "newcomer", terms(now())));

    if (next.nodeId() == held.nodeId()) {
      assertThat(next.highWaterMillis())
          .as("the newcomer on the running holder's id starts after the holder's deadline")
          .isGreaterThanOrEqualTo(deadline);
    }
  }

  private static LeaseTerms terms(long mayIssueUntil) {
    return new LeaseTerms(TTL, now(), mayIssueUntil);
  }

  @Test
  void acquire_concurrentHolders_getDistinctIds() throws InterruptedException {
    int holders = 12;
    List<LeaseCoordinator> coordinators = new ArrayList<>();
    for (int i = 0; i < holders; i++) {
      coordinators.add(open());
    }
    ConcurrentLinkedQueue<Long> ids = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < holders; i++) {
      LeaseCoordinator c = coordinators.get(i);
      String instance = "holder-" + i;
      Thread t =
          new Thread(
              () -> {
                try {
                  go.await();
                  ids.add(acquire(c, 16, instance).nodeId());
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                } catch (RuntimeException e) {
                  errors.add(e);
                }
              });
      threads.add(t);
      t.start();
    }
    go.countDown();
    for (Thread t : threads) {
      t.join();
    }
    assertThat(errors).isEmpty();
    assertThat(new HashSet<>(ids)).hasSize(holders);
    assertThat(ids).allMatch(id -> id >= 0 && id < 16);
  }

  /**
   * The message names the namespace and its size, the size as a word of its own (e.g. "all 4 node
   * ids of namespace orders are held"): a 4 inside a longer word, such as a namespace or an
   * instance, does not count.
   */
  @Test
  void acquire_namespaceExhausted_throwsNamingNamespaceAndSize() {
    LeaseCoordinator c = open();
    for (int i = 0; i < 4; i++) {
      acquire(c, 4, "holder-" + i);
    }
    assertThatThrownBy(() -> acquire(open(), 4, "one-too-many"))
        .isInstanceOf(NodeIdUnavailableException.class)
        .hasMessageContaining(namespace)
        .hasMessageFindingMatch("\\b4\\b");
  }

  @Test
  void acquire_sameInstanceAfterRestart_getsItsPreviousIdBack() {
    LeaseCoordinator first = open();
    Lease other = acquire(first, 8, "other");
    Lease mine = acquire(first, 8, "svc-a");
    assertThat(mine.nodeId()).isNotEqualTo(other.nodeId());
    first.release(mine, now());
    first.release(other, now());

    Lease again = acquire(open(), 8, "svc-a");

    assertThat(again.nodeId()).isEqualTo(mine.nodeId());
  }

  @Test
  void acquire_crashedHolder_idIsReclaimedWithItsHighWaterMark() {
    LeaseCoordinator dead = open();
    long promised = now() + 1_500;
    Lease old =
        dead.acquire(
            new AcquireRequest(namespace, 1, "dead", new LeaseTerms(TTL, now(), promised)));
    crash(dead);

    LeaseCoordinator next = open();
    Lease taken = awaitAcquire(() -> acquire(next, 1, "next"), reclaimWithin(TTL));

    assertThat(taken.nodeId()).isEqualTo(old.nodeId());
    assertThat(taken.token()).isNotEqualTo(old.token());
    assertThat(taken.highWaterMillis()).isGreaterThanOrEqualTo(promised);
  }

  @Test
  void renew_extendsTheLeaseAndRaisesTheHighWaterMark() throws InterruptedException {
    LeaseCoordinator c = open();
    Lease l = acquire(c, 2, "renewer");
    Thread.sleep(20);
    long promised = now() + 60_000;
    Lease renewed = c.renew(l, new LeaseTerms(TTL, now(), promised));
    assertThat(renewed.nodeId()).isEqualTo(l.nodeId());
    assertThat(renewed.expiresAtMillis()).isGreaterThan(l.expiresAtMillis());
    crash(c);

    Lease next = awaitAcquire(() -> acquire(open(), 1, "renewer"), reclaimWithin(TTL));
    assertThat(next.nodeId()).isEqualTo(l.nodeId());
    assertThat(next.highWaterMillis()).isGreaterThanOrEqualTo(promised);
  }

  /**
   * A renewal that the registry applied but whose answer the holder never used (it came too late,
   * or the holder's own checks dropped it, as a clock skew does): the next renewal, made with the
   * lease as the holder knew it, renews, records no loss, and the dropped renewal's promise stays.
   */
  @Test
  void renew_afterARenewalWhoseAnswerWasNotUsed_renewsWithoutRecordingALoss()
      throws InterruptedException {
    LeaseCoordinator c = open();
    Lease l = acquire(c, 2, "renewer");
    long promised = now() + 2_000;
    c.renew(l, new LeaseTerms(TTL, now(), promised)); // applied; its answer is dropped
    Thread.sleep(20);

    Lease again = c.renew(l, new LeaseTerms(TTL, now(), now() + 1_000));

    assertThat(again.nodeId()).isEqualTo(l.nodeId());
    crash(c);
    Lease next = awaitAcquire(() -> acquire(open(), 1, "renewer"), reclaimWithin(TTL));
    assertThat(next.nodeId()).isEqualTo(l.nodeId());
    assertThat(next.highWaterMillis())
        .as("the dropped renewal's promise kept, and no loss's wait (maxTtl + maxSkew) added")
        .isGreaterThanOrEqualTo(promised)
        .isLessThan(Math.max(l.highWaterMillis(), promised) + 10_000);
  }

  @Test
  void release_recordsWhatWasIssuedInsteadOfThePromise() {
    LeaseCoordinator c = open();
    long promised = now() + 60_000;
    Lease l =
        c.acquire(
            new AcquireRequest(namespace, 1, "graceful", new LeaseTerms(TTL, now(), promised)));
    long issued = now() + 5;
    c.release(l, issued);

    Lease next = acquire(open(), 1, "graceful");

    assertThat(next.highWaterMillis()).isGreaterThanOrEqualTo(issued).isLessThan(promised);
  }

  @Test
  void release_issuedNothingPastThePreviousHighWater_keepsThatHighWater() {
    LeaseCoordinator dead = open();
    long promised = now() + 60_000;
    dead.acquire(new AcquireRequest(namespace, 1, "dead", new LeaseTerms(TTL, now(), promised)));
    crash(dead);
    LeaseCoordinator idle = open();
    Lease l = awaitAcquire(() -> acquire(idle, 1, "idle"), reclaimWithin(TTL));
    assertThat(l.highWaterMillis()).isGreaterThanOrEqualTo(promised);
    idle.release(l, now()); // its clock never passed the mark, so it issued nothing

    Lease next = acquire(open(), 1, "next");

    assertThat(next.highWaterMillis()).isGreaterThanOrEqualTo(promised);
  }

  @Test
  void release_twice_isIdempotentAndRenewAfterwardFails() {
    LeaseCoordinator c = open();
    Lease l = acquire(c, 1, "releaser");
    c.release(l, now());
    c.release(l, now());
    assertThatThrownBy(() -> c.renew(l, new LeaseTerms(TTL, now(), now())))
        .isInstanceOf(LeaseTakenException.class);
    assertThat(acquire(open(), 1, "someone").nodeId()).isZero();
  }

  @Test
  void acquire_differentNamespaces_areIndependent() {
    LeaseCoordinator c = open();
    Lease a = acquire(c, 1, "a");
    Lease b =
        c.acquire(
            new AcquireRequest(
                namespace + "-other", 1, "b", new LeaseTerms(TTL, now(), now() + 1000)));
    assertThat(a.nodeId()).isZero();
    assertThat(b.nodeId()).isZero();
  }

  // ---- fixed node bits: a request allows only the ids whose bits at mask are match ----

  private Lease acquire(LeaseCoordinator c, long size, long mask, long match, String instance) {
    return c.acquire(
        new AcquireRequest(
            namespace,
            size,
            mask,
            match,
            instance,
            new LeaseTerms(TTL, now(), now() + TTL.toMillis())));
  }

  /** Takes exactly {@code id}: every bit fixed. */
  private Lease pin(LeaseCoordinator c, long size, long id) {
    return acquire(c, size, size - 1, id, "pinned-" + id);
  }

  @Test
  void acquire_fixedBits_skipsFreeIdsTheRequestDoesNotAllow() {
    LeaseCoordinator c = open();
    for (int i = 0; i < 3; i++) {
      c.release(acquire(c, 16, "any-" + i), now()); // ids 0, 1, 2 have records and are free
    }
    Set<Long> ids = new HashSet<>();
    for (int i = 0; i < 4; i++) {
      ids.add(acquire(open(), 16, 0b1100, 0b0100, "fixed-" + i).nodeId());
    }

    assertThat(ids).containsExactlyInAnyOrder(4L, 5L, 6L, 7L);
  }

  @Test
  void acquire_highBitsFixedToZero_skipsTheIdAnUnfixedHolderTook() {
    Lease any = acquire(open(), 8, "any");
    assertThat(any.nodeId()).isZero();

    Lease fixed = acquire(open(), 8, 0b100, 0, "fixed");

    assertThat(fixed.nodeId()).isNotZero();
    assertThat(fixed.nodeId() & 0b100).isZero();
  }

  /** Low bits fixed (a fixed worker, a leased datacenter): the allowed ids are 2, 6, 10, 14. */
  @Test
  void acquire_lowBitsFixed_takesTheGapBetweenAllowedIdsThenTheEnd() {
    LeaseCoordinator c = open();
    for (long id : new long[] {2, 3, 7, 10}) {
      pin(c, 16, id);
    }

    Lease gap = acquire(open(), 16, 0b11, 0b10, "worker-2-a");
    Lease end = acquire(open(), 16, 0b11, 0b10, "worker-2-b");

    assertThat(gap.nodeId()).isEqualTo(6);
    assertThat(end.nodeId()).isEqualTo(14);
  }

  @Test
  void acquire_everyAllowedIdHeld_failsWhileOtherIdsAreFree() {
    LeaseCoordinator c = open();
    acquire(c, 8, 0b110, 0b110, "top-a");
    acquire(c, 8, 0b110, 0b110, "top-b"); // 6 and 7: all the request allows

    assertThatThrownBy(() -> acquire(open(), 8, 0b110, 0b110, "one-too-many"))
        .isInstanceOf(NodeIdUnavailableException.class)
        .hasMessageContaining(namespace)
        .hasMessageFindingMatch("\\ball 2\\b");
    assertThat(acquire(open(), 8, "any").nodeId()).isZero();
  }

  @Test
  void acquire_previousIdNotAllowedAnyMore_isNotReused() {
    LeaseCoordinator c = open();
    Lease before = acquire(c, 8, "svc-a");
    assertThat(before.nodeId()).isZero();
    c.release(before, now());

    Lease again = acquire(open(), 8, 0b100, 0b100, "svc-a");

    assertThat(again.nodeId()).isEqualTo(4);
  }

  // ---- for operators: list and releaseAbandoned ----

  private Lease acquire(LeaseCoordinator c, long size, String instance, long promised) {
    return c.acquire(
        new AcquireRequest(namespace, size, instance, new LeaseTerms(TTL, now(), promised)));
  }

  private static LeaseInfo infoOf(LeaseListing listing, long nodeId) {
    return listing.leases().stream()
        .filter(i -> i.nodeId() == nodeId)
        .findFirst()
        .orElseThrow(() -> new AssertionError("node id " + nodeId + " not in " + listing));
  }

  @Test
  void list_namespaceWithoutRecords_isEmpty() {
    LeaseListing listing = open().list(namespace + "-empty");

    assertThat(listing.leases()).isEmpty();
    assertThat(listing.coordinatorNowMillis()).isCloseTo(now(), within(60_000L));
  }

  @Test
  void list_heldAndReleasedIds_reportsEachInIdOrderAndChangesNothing() {
    LeaseCoordinator c = open();
    long promised = now() + 60_000;
    // svc-b first: a backend may start a new id past the namespace's marks (file: does, since a
    // missing record may be a deleted one), which would put the others' promises under b's release
    long bPromised = now() + 30_000;
    Lease b = acquire(c, 8, "svc-b", bPromised);
    Lease a = acquire(c, 8, "svc-a", promised);
    Lease d = acquire(c, 8, "svc-d", promised);
    long issued = now() + 5;
    c.release(b, issued);

    LeaseListing listing = open().list(namespace);

    assertThat(listing.leases())
        .extracting(LeaseInfo::nodeId)
        .isSorted()
        .containsExactlyInAnyOrder(a.nodeId(), b.nodeId(), d.nodeId());
    assertThat(listing.leases()).allMatch(i -> i.namespace().equals(namespace));
    LeaseInfo held = infoOf(listing, a.nodeId());
    assertThat(held.instance()).isEqualTo("svc-a");
    assertThat(held.state()).isEqualTo(LeaseInfo.State.HELD);
    assertThat(held.expiresAtMillis()).isGreaterThan(listing.coordinatorNowMillis());
    assertThat(held.highWaterMillis()).isGreaterThanOrEqualTo(promised);
    assertThat(held.host()).isNotNull();
    LeaseInfo released = infoOf(listing, b.nodeId());
    assertThat(released.instance()).isEqualTo("svc-b");
    assertThat(released.state()).isEqualTo(LeaseInfo.State.RELEASED);
    assertThat(released.expiresAtMillis()).isEqualTo(Long.MIN_VALUE);
    assertThat(released.highWaterMillis()).isGreaterThanOrEqualTo(issued).isLessThan(bPromised);
    assertThat(infoOf(listing, d.nodeId()).state()).isEqualTo(LeaseInfo.State.HELD);
    // read-only: the holders renew as before, and nothing was released or taken
    assertThat(c.renew(a, new LeaseTerms(TTL, now(), promised)).nodeId()).isEqualTo(a.nodeId());
    assertThat(open().list(namespace).leases())
        .extracting(LeaseInfo::state)
        .containsExactlyElementsOf(listing.leases().stream().map(LeaseInfo::state).toList());
  }

  @Test
  void list_crashedHolder_showsExpiredOnceItCannotIssue() {
    LeaseCoordinator dead = open();
    long promised = now() + 1_500;
    Lease l = acquire(dead, 1, "dead", promised);
    crash(dead);
    LeaseCoordinator operator = open();

    LeaseInfo info =
        awaitValue(
            () -> infoOf(operator.list(namespace), l.nodeId()),
            i -> i.state() == LeaseInfo.State.EXPIRED,
            reclaimWithin(TTL));

    assertThat(info.instance()).isEqualTo("dead");
    assertThat(info.highWaterMillis()).isGreaterThanOrEqualTo(promised);
  }

  @Test
  void releaseAbandoned_liveHolder_isRefusedNamingItAndChangesNothing() {
    LeaseCoordinator c = open();
    long promised = now() + 60_000;
    Lease l = acquire(c, 4, "alive-holder", promised);

    assertThatThrownBy(() -> open().releaseAbandoned(namespace, l.nodeId()))
        .isInstanceOf(LeaseTakenException.class)
        .hasMessageContaining("alive-holder");

    assertThat(infoOf(open().list(namespace), l.nodeId()).state()).isEqualTo(LeaseInfo.State.HELD);
    assertThat(c.renew(l, new LeaseTerms(TTL, now(), promised)).nodeId()).isEqualTo(l.nodeId());
  }

  @Test
  void releaseAbandoned_crashedHolder_releasesKeepingTheHighWaterMark() {
    LeaseCoordinator dead = open();
    long promised = now() + 60_000;
    Lease l = acquire(dead, 1, "dead", promised);
    crash(dead);
    LeaseCoordinator operator = open();

    awaitValue(
        () -> {
          try {
            operator.releaseAbandoned(namespace, l.nodeId());
            return true;
          } catch (LeaseTakenException e) {
            return false; // not expired yet
          }
        },
        released -> released,
        reclaimWithin(TTL));

    LeaseInfo info = infoOf(operator.list(namespace), l.nodeId());
    assertThat(info.state()).isEqualTo(LeaseInfo.State.RELEASED);
    assertThat(info.highWaterMillis()).isGreaterThanOrEqualTo(promised);
    Lease next = acquire(open(), 1, "next");
    assertThat(next.nodeId()).isEqualTo(l.nodeId());
    assertThat(next.highWaterMillis()).isGreaterThanOrEqualTo(promised);
  }

  @Test
  void releaseAbandoned_releasedOrUnrecordedId_changesNothing() {
    LeaseCoordinator c = open();
    Lease l = acquire(c, 8, "released");
    c.release(l, now());
    LeaseCoordinator operator = open();
    LeaseListing before = operator.list(namespace);

    operator.releaseAbandoned(namespace, l.nodeId());
    operator.releaseAbandoned(namespace, 7); // no record

    LeaseListing after = operator.list(namespace);
    assertThat(after.leases()).isEqualTo(before.leases());
  }

  /** Polls {@code read} until {@code done} accepts its value; fails after {@code within}. */
  private static <T> T awaitValue(Supplier<T> read, Predicate<T> done, Duration within) {
    long deadline = System.nanoTime() + within.toNanos();
    while (true) {
      T value = read.get();
      if (done.test(value)) {
        return value;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("still " + value + " after " + within);
      }
      sleep(50);
    }
  }

  // ---- through a generator: fencing, skew, high-water ----

  private NodeLease lease(LeaseCoordinator c, TimeSource time, String ttl) {
    return lease(c, time, ttl, Map.of("datacenter", 1L));
  }

  /** A lease of the node values fixed by {@code fixed}, the other node fields leased. */
  private NodeLease lease(
      LeaseCoordinator c, TimeSource time, String ttl, Map<String, Long> fixed) {
    LeaseOptions options =
        LeaseOptions.parse("contract?namespace=" + namespace + "&ttl=" + ttl, TTL);
    return LeaseCoordinators.lease(c, options, Layout.twitter(), fixed, time);
  }

  /** Both node fields fixed: a namespace of one id, so the next holder must take that very id. */
  private static final Map<String, Long> ONE_ID = Map.of("datacenter", 1L, "worker", 3L);

  @Test
  void generator_renewalsFail_stopsBeforeExpiryAndNextHolderStartsStrictlyAfter() {
    FaultyCoordinator faulty = new FaultyCoordinator(open());
    NodeLease leaseA = lease(faulty, TimeSource.monotonic(), "900ms", ONE_ID);
    opened.add(leaseA);
    Snowflake a = Snowflake.builder().lease(leaseA).build();
    long lastOfA = a.nextId();
    faulty.failRenewals(true);
    Lease granted = faulty.lastGranted();

    long fencedSince =
        awaitThrows(
            () -> {
              a.nextId();
            },
            PATIENCE);
    // it stopped before the coordinator could consider the lease expired (same host clock here)
    assertThat(fencedSince).isLessThan(faulty.lastGranted().expiresAtMillis());
    assertThat(faulty.lastGranted().expiresAtMillis())
        .isGreaterThanOrEqualTo(granted.expiresAtMillis());
    assertThat(a.nodeStatus().held()).isFalse();
    assertThat(a.nodeStatus().renewalFailures()).isPositive();
    long maxOfA = lastOfA;

    crash(faulty.delegate());
    LeaseCoordinator other = open();
    NodeLease leaseB =
        awaitAcquire(
            () -> lease(other, TimeSource.monotonic(), "900ms", ONE_ID), reclaimWithin(TTL));
    opened.add(leaseB);
    Snowflake b = Snowflake.builder().lease(leaseB).build();
    long firstOfB = b.nextId();

    assertThat(b.node()).isEqualTo(a.node());
    assertThat(Layout.twitter().decode(firstOfB).timestampMillis())
        .isGreaterThan(Layout.twitter().decode(maxOfA).timestampMillis());
    assertThat(firstOfB).isGreaterThan(maxOfA);
  }

  @Test
  void generator_renewalsRecover_resumesWithTheSameNode() {
    FaultyCoordinator faulty = new FaultyCoordinator(open());
    NodeLease l = lease(faulty, TimeSource.monotonic(), "600ms");
    opened.add(l);
    Snowflake gen = Snowflake.builder().lease(l).build();
    long before = gen.nextId();
    faulty.failRenewals(true);
    awaitThrows(gen::nextId, PATIENCE);
    faulty.failRenewals(false);

    long after = awaitId(gen, PATIENCE);

    assertThat(after).isGreaterThan(before);
    assertThat(gen.nodeStatus().held()).isTrue();
  }

  @Test
  void generator_coordinatorClockSkewsWhileRunning_fencesUntilItAgrees() {
    FaultyCoordinator faulty = new FaultyCoordinator(open());
    NodeLease l = lease(faulty, TimeSource.monotonic(), "600ms");
    opened.add(l);
    Snowflake gen = Snowflake.builder().lease(l).build();
    long before = gen.nextId();
    faulty.skew(Duration.ofSeconds(5));

    awaitThrows(gen::nextId, PATIENCE);
    assertThat(gen.nodeStatus().held()).isFalse();
    assertThat(gen.nodeStatus().detail()).contains("clock skew");

    faulty.skew(Duration.ZERO);
    assertThat(awaitId(gen, PATIENCE)).isGreaterThan(before);
  }

  @Test
  void generator_coordinatorClockSkewedBeyondAllowance_acquisitionFails() {
    FaultyCoordinator skewed = new FaultyCoordinator(open()).skew(Duration.ofSeconds(5));
    assertThatThrownBy(() -> lease(skewed, TimeSource.monotonic(), "2s"))
        .isInstanceOf(NodeIdUnavailableException.class)
        .hasMessageContaining("clock skew");
    // the failed acquisition released its id: it is free again
    assertThat(acquire(open(), 1, "after-skew").nodeId()).isZero();
  }

  @Test
  void generator_clockSetBackAcrossRestart_neverRepeatsAndFailsBeyondStartWait() {
    // The manual clocks stand still while the test runs: a skew allowance of 4 s keeps a slow
    // machine's seconds from failing the skew check of a coordinator with a clock of its own.
    String ttlAndSkew = "2s&skew=4s";
    ManualClock clock = ManualClock.create();
    clock.set(Instant.now());
    NodeLease first = lease(open(), TimeSource.monotonic(clock), ttlAndSkew);
    Snowflake a = Snowflake.builder().lease(first).timeSource(TimeSource.monotonic(clock)).build();
    Set<Long> ids = new HashSet<>();
    for (int i = 0; i < 10_000; i++) {
      ids.add(a.nextId());
    }
    long maxOfA = a.nextId();
    first.close();

    ManualClock behind = ManualClock.at(clock.wallInstant().minusMillis(500));
    NodeLease second = lease(open(), TimeSource.monotonic(behind), ttlAndSkew);
    opened.add(second);
    Snowflake b =
        Snowflake.builder().lease(second).timeSource(TimeSource.monotonic(behind)).build();
    long firstOfB = b.nextId(); // waits (virtually) until its clock passes the high-water mark
    assertThat(firstOfB).isGreaterThan(maxOfA);
    assertThat(ids).doesNotContain(firstOfB);
    second.close();

    // far behind: refused, by the high-water check (or, for a coordinator with a clock of its
    // own, already by the skew check)
    ManualClock farBehind = ManualClock.at(clock.wallInstant().minusSeconds(60));
    assertThatThrownBy(() -> lease(open(), TimeSource.monotonic(farBehind), ttlAndSkew))
        .isInstanceOfAny(ClockMovedBackwardsException.class, NodeIdUnavailableException.class)
        .hasMessageMatching("(?s).*(high-water|clock skew).*");
  }

  private static long awaitThrows(Runnable call, Duration within) {
    long deadline = System.nanoTime() + within.toNanos();
    while (System.nanoTime() < deadline) {
      try {
        call.run();
      } catch (LeaseLostException e) {
        return e.since().toEpochMilli(); // when the generator stopped: its lease deadline
      }
      sleep(5);
    }
    throw new AssertionError("still issuing after " + within);
  }

  private static long awaitId(Snowflake gen, Duration within) {
    long deadline = System.nanoTime() + within.toNanos();
    while (true) {
      try {
        return gen.nextId();
      } catch (LeaseLostException e) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError("did not resume within " + within, e);
        }
        sleep(20);
      }
    }
  }

  private static <T> T awaitAcquire(Supplier<T> attempt, Duration within) {
    long deadline = System.nanoTime() + within.toNanos();
    while (true) {
      try {
        return attempt.get();
      } catch (NodeIdUnavailableException e) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError("not reclaimed within " + within, e);
        }
        sleep(50);
      }
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
