package io.snowid.redis;

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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What a Redis that lost or rolled back part of its state makes newcomers do, by the namespace's
 * state key: every id taken after a loss starts after maxTtl + maxSkew + 1 s from it (the limits
 * every holder was held to, never the newcomer's ttl); a namespace has one set of limits while
 * holders live; a renewal that finds its record older than it confirmed fences. On the shared
 * server, by the coordinator's calls.
 */
@Tag("integration")
class RedisRegistryLossTest {
  private static final LeaseLimits SHORT =
      new LeaseLimits(Duration.ofSeconds(1), Duration.ofMillis(500));

  private final String prefix = TestRedis.uniquePrefix();
  private final String uri = TestRedis.shared().uri() + "?prefix=" + prefix;
  private final String state = "{" + prefix + "}:ns:state";
  private final String ids = "{" + prefix + "}:ns:ids";
  private final List<AutoCloseable> opened = new ArrayList<>();

  @AfterEach
  void cleanUp() throws Exception {
    for (AutoCloseable c : opened) {
      c.close();
    }
    TestRedis.shared().deletePrefix(uri);
  }

  private RedisLeaseCoordinator open() {
    RedisLeaseCoordinator c = RedisLeaseCoordinator.open(uri);
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

  private static String cli(String... args) throws Exception {
    return TestRedis.shared().cli(args);
  }

  @Test
  void acquire_newNamespaceOfAPrefixInService_doesNotWait() {
    TestRedis.shared().putInService(uri);
    Lease l = open().acquire(request("a", 2_000, LeaseLimits.DEFAULT));
    assertThat(l.highWaterMillis()).isLessThan(l.coordinatorNowMillis());
  }

  /**
   * A prefix of the version before the memory of created namespaces (no {@code ns:ns} field in its
   * registry hash): a namespace with state is trusted as before, and the acquisition adds the
   * memory, so that the namespace's keys deleted afterwards are found lost.
   */
  @Test
  void acquire_prefixWithoutTheMemory_trustedAsBeforeThenRemembersTheNamespace() throws Exception {
    TestRedis.shared().putInService(uri);
    open().acquire(request("a", 2_000, LeaseLimits.DEFAULT));
    String registry = "{" + prefix + "}:registry";
    cli("hdel", registry, "ns:ns");

    Lease b = open().acquire(request("b", 2_000, LeaseLimits.DEFAULT));
    assertThat(b.highWaterMillis()).isLessThan(b.coordinatorNowMillis());
    assertThat(cli("hexists", registry, "ns:ns")).isEqualTo("1");

    TestRedis.shared().deleteNamespace(uri, "ns");
    Lease next = open().acquire(request("next", 2_000, LeaseLimits.DEFAULT));
    assertThat(next.highWaterMillis() - next.coordinatorNowMillis())
        .isEqualTo(30_000 + 5_000 + 1_000);
    assertThat(next.startReason()).contains("the prefix created it");
  }

  @Test
  void acquire_afterFlush_newcomerWithAShortTtlStartsAfterTheLimitsNotItsTtl() throws Exception {
    TestRedis.shared().putInService(uri);
    open().acquire(request("old", 30_000, LeaseLimits.DEFAULT));
    cli("del", ids, state, "{" + prefix + "}:ns:held", "{" + prefix + "}:registry");

    Lease next = open().acquire(request("new", 1_000, LeaseLimits.DEFAULT));

    assertThat(next.highWaterMillis() - next.coordinatorNowMillis())
        .isEqualTo(30_000 + 5_000 + 1_000);
  }

  @Test
  void acquire_newNamespaceAfterAnotherFoundThePrefixLost_waitsOutTheLossToo() throws Exception {
    TestRedis.shared().putInService(uri);
    open().acquire(request("old", 2_000, LeaseLimits.DEFAULT));
    cli("flushall"); // Redis restarted empty
    Lease first = open().acquire(request("first", 2_000, LeaseLimits.DEFAULT));

    // the prefix has a write again, but a holder of "other" it forgot may still be issuing
    long now = System.currentTimeMillis();
    Lease other =
        open()
            .acquire(
                new AcquireRequest(
                    "other", 4, "b", new LeaseTerms(Duration.ofSeconds(2), now, now + 2_000)));

    assertThat(other.highWaterMillis()).isEqualTo(first.highWaterMillis());
  }

  @Test
  void acquire_newNamespaceAfterARenewalFoundARollback_waitsOutTheLoss() throws Exception {
    TestRedis.shared().putInService(uri);
    RedisLeaseCoordinator c = open();
    Lease l = c.acquire(request("a", 2_000, LeaseLimits.DEFAULT));
    String before = cli("hget", ids, Long.toString(l.nodeId()));
    Thread.sleep(5);
    Lease renewed = c.renew(l, terms(2_000));
    cli("hset", ids, Long.toString(l.nodeId()), before);
    assertThatThrownBy(() -> c.renew(renewed, terms(2_000)))
        .isInstanceOf(LeaseTakenException.class);

    long now = System.currentTimeMillis();
    Lease other =
        c.acquire(
            new AcquireRequest(
                "other", 4, "b", new LeaseTerms(Duration.ofSeconds(2), now, now + 2_000)));

    assertThat(other.highWaterMillis() - other.coordinatorNowMillis()).isBetween(35_000L, 36_000L);
  }

  @Test
  void acquire_idleNamespaceInABusyPrefix_doesNotMakeOtherNamespacesWait() throws Exception {
    TestRedis.shared().putInService(uri);
    Lease old = open().acquire(request("old", 1_000, SHORT));
    cli("hset", state, "written", Long.toString(old.coordinatorNowMillis() - 2_000));
    open().acquire(request("new", 1_000, SHORT)); // finds "ns" idle: its own loss

    long now = System.currentTimeMillis();
    Lease other =
        open()
            .acquire(
                new AcquireRequest(
                    "other", 4, "b", new LeaseTerms(Duration.ofSeconds(2), now, now + 2_000)));

    assertThat(other.highWaterMillis()).isLessThan(other.coordinatorNowMillis());
  }

  @Test
  void acquire_namespaceWithoutAWriteForItsMaxTtl_isDistrustedLikeALostOne() throws Exception {
    TestRedis.shared().putInService(uri);
    Lease old = open().acquire(request("old", 1_000, SHORT));
    // a snapshot from 2 s ago: the newest write is older than any live holder would leave it
    cli("hset", state, "written", Long.toString(old.coordinatorNowMillis() - 2_000));

    Lease next = open().acquire(request("new", 1_000, SHORT));

    assertThat(next.highWaterMillis() - next.coordinatorNowMillis()).isEqualTo(1_000 + 500 + 1_000);
  }

  @Test
  void acquire_recordDeletedWhileOthersKeepTheNamespaceInService_waitsOutTheLoss()
      throws Exception {
    TestRedis.shared().putInService(uri);
    RedisLeaseCoordinator c = open();
    Lease a = c.acquire(request("a", 2_000, LeaseLimits.DEFAULT));
    c.acquire(request("b", 2_000, LeaseLimits.DEFAULT));
    cli("hdel", ids, Long.toString(a.nodeId()));
    cli("zrem", "{" + prefix + "}:ns:held", Long.toString(a.nodeId()));

    Lease next = c.acquire(request("c", 2_000, LeaseLimits.DEFAULT));

    assertThat(next.nodeId()).isEqualTo(a.nodeId());
    assertThat(next.highWaterMillis() - next.coordinatorNowMillis()).isEqualTo(36_000);
  }

  @Test
  void acquire_otherLimitsWhileAHolderLives_refusedNamingBoth() {
    TestRedis.shared().putInService(uri);
    open().acquire(request("a", 2_000, LeaseLimits.DEFAULT));
    LeaseLimits larger = new LeaseLimits(Duration.ofMinutes(5), Duration.ofSeconds(5));

    assertThatThrownBy(() -> open().acquire(request("b", 2_000, larger)))
        .isInstanceOf(LeaseTermsException.class)
        .hasMessageContaining("1 live holder(s) with maxTtl 30s, maxSkew 5s")
        .hasMessageContaining("asks for maxTtl 5m, maxSkew 5s");
  }

  @Test
  void acquire_otherLimitsOnceNoHolderLives_takesThemAsTheNamespaces() {
    TestRedis.shared().putInService(uri);
    RedisLeaseCoordinator c = open();
    c.release(c.acquire(request("a", 2_000, LeaseLimits.DEFAULT)), Long.MIN_VALUE);
    LeaseLimits larger = new LeaseLimits(Duration.ofMinutes(5), Duration.ofSeconds(5));

    c.acquire(request("b", 2_000, larger));

    assertThatThrownBy(() -> c.acquire(request("c", 2_000, LeaseLimits.DEFAULT)))
        .isInstanceOf(LeaseTermsException.class)
        .hasMessageContaining("with maxTtl 5m, maxSkew 5s");
  }

  @Test
  void renew_recordRolledBackToAnEarlierRenewal_fencesAndNewcomersWaitOutTheLoss()
      throws Exception {
    TestRedis.shared().putInService(uri);
    RedisLeaseCoordinator c = open();
    Lease l = c.acquire(request("a", 2_000, LeaseLimits.DEFAULT));
    String before = cli("hget", ids, Long.toString(l.nodeId()));
    Thread.sleep(5);
    Lease renewed = c.renew(l, terms(2_000));
    cli("hset", ids, Long.toString(l.nodeId()), before); // a snapshot from before the renewal

    assertThatThrownBy(() -> c.renew(renewed, terms(2_000)))
        .isInstanceOf(LeaseTakenException.class)
        .hasMessageContaining("went back to an older state");
    Lease next = c.acquire(request("a", 2_000, LeaseLimits.DEFAULT));

    assertThat(next.nodeId()).as("released for its holder to take again").isEqualTo(l.nodeId());
    assertThat(next.highWaterMillis() - next.coordinatorNowMillis()).isBetween(35_000L, 36_000L);
  }

  private static final LeaseLimits SKEW_1S =
      new LeaseLimits(Duration.ofSeconds(30), Duration.ofSeconds(1));

  private String registry() {
    return "{" + prefix + "}:registry";
  }

  /**
   * Two holders renew after their records are copied; {@code gapMillis} later the copies are put
   * back and the finder's renewal finds the rollback and records it. Returns the cut-off holder's
   * lease, to renew next.
   */
  private Lease rollbackFoundByAnotherHolderAfter(RedisLeaseCoordinator c, long gapMillis)
      throws Exception {
    Lease cut = c.acquire(request("cut", 10_000, SKEW_1S));
    Lease finder = c.acquire(request("finder", 10_000, SKEW_1S));
    String cutBefore = cli("hget", ids, Long.toString(cut.nodeId()));
    String finderBefore = cli("hget", ids, Long.toString(finder.nodeId()));
    Thread.sleep(5);
    Lease cutRenewed = c.renew(cut, terms(10_000));
    Lease finderRenewed = c.renew(finder, terms(10_000));
    Thread.sleep(gapMillis);
    cli("hset", ids, Long.toString(cut.nodeId()), cutBefore); // a snapshot from before both
    cli("hset", ids, Long.toString(finder.nodeId()), finderBefore);
    assertThatThrownBy(() -> c.renew(finderRenewed, terms(10_000)))
        .isInstanceOf(LeaseTakenException.class)
        .hasMessageContaining("went back to an older state");
    Thread.sleep(200);
    return cutRenewed;
  }

  // A holder cut off while another found the rollback found its record gone back when it came
  // back, recorded the loss anew, and newcomers waited a whole loss wait from then.
  @Test
  void renew_afterAnotherHolderFoundTheRollback_takesThatLossOnNotANewOne() throws Exception {
    TestRedis.shared().putInService(uri);
    RedisLeaseCoordinator c = open();
    Lease cut = rollbackFoundByAnotherHolderAfter(c, SKEW_1S.maxSkew().toMillis() + 500);
    String lostAt = cli("hget", registry(), "lostAt");
    String lostUntil = cli("hget", state, "lostUntil");

    assertThatThrownBy(() -> c.renew(cut, terms(10_000)))
        .isInstanceOf(LeaseTakenException.class)
        .hasMessageContaining("went back to an older state")
        .hasMessageContaining(
            "newcomers start after "
                + java.time.Instant.ofEpochMilli(Long.parseLong(lostUntil.strip())));
    assertThat(cli("hget", registry(), "lostAt")).isEqualTo(lostAt);
    assertThat(cli("hget", state, "lostUntil")).isEqualTo(lostUntil);
  }

  // A loss found within maxSkew of the holder's write may come from another clock's earlier
  // finding (a failover), kept in the state that lacks the write: the holder records it anew.
  @Test
  void renew_afterALossFoundWithinMaxSkewOfItsWrite_recordsTheLossAnew() throws Exception {
    TestRedis.shared().putInService(uri);
    RedisLeaseCoordinator c = open();
    Lease cut = rollbackFoundByAnotherHolderAfter(c, 0);
    long lostAt = Long.parseLong(cli("hget", registry(), "lostAt").strip());

    assertThatThrownBy(() -> c.renew(cut, terms(10_000)))
        .isInstanceOf(LeaseTakenException.class)
        .hasMessageContaining("went back to an older state");
    assertThat(Long.parseLong(cli("hget", registry(), "lostAt").strip())).isGreaterThan(lostAt);
  }

  @Test
  void renew_timedOutRenewalThatRedisApplied_isNotARollback() {
    TestRedis.shared().putInService(uri);
    RedisLeaseCoordinator c = open();
    Lease l = c.acquire(request("a", 2_000, LeaseLimits.DEFAULT));
    c.renew(l, terms(2_000)); // the holder never saw this answer

    Lease renewed = c.renew(l, terms(2_000));

    assertThat(renewed.nodeId()).isEqualTo(l.nodeId());
  }

  /**
   * A rollback to a snapshot taken before a holder acquired (its record absent) or while an earlier
   * holder had the id released: the holder's renewal finds its grant gone before its expiry, which
   * proves the loss, so a newcomer after it starts past what the holder may issue.
   */
  @Test
  void renew_grantGoneBeforeItsExpiryAfterARollback_newcomersStartAfterTheHolder()
      throws Exception {
    TestRedis.shared().putInService(uri);
    open().acquire(request("busy", 10_000, LeaseLimits.DEFAULT));
    renewAfterARollback_newcomerStartsAfterTheHolder(
        "before its expiry: Redis lost or rolled back");
  }

  @Test
  void renew_grantReleasedBeforeItsExpiryAfterARollback_newcomersStartAfterTheHolder()
      throws Exception {
    TestRedis.shared().putInService(uri);
    RedisLeaseCoordinator earlier = open();
    earlier.release(
        earlier.acquire(request("p", 10_000, LeaseLimits.DEFAULT)), System.currentTimeMillis());
    renewAfterARollback_newcomerStartsAfterTheHolder("released before its expiry");
  }

  /** Snapshot, a holder acquires and renews, the snapshot comes back, the holder renews. */
  private void renewAfterARollback_newcomerStartsAfterTheHolder(String why) {
    java.util.Map<String, byte[]> snapshot = TestRedis.shared().dumpPrefix(uri);
    RedisLeaseCoordinator c = open();
    Lease h = c.acquire(request("h", 10_000, LeaseLimits.DEFAULT));
    LeaseTerms promised = terms(10_000);
    Lease renewed = c.renew(h, promised);
    TestRedis.shared().restorePrefix(uri, snapshot);

    assertThatThrownBy(() -> c.renew(renewed, terms(10_000)))
        .isInstanceOf(LeaseTakenException.class)
        .hasMessageContaining(why);
    Lease next = open().acquire(request("n", 10_000, LeaseLimits.DEFAULT));

    assertThat(next.nodeId()).isEqualTo(h.nodeId());
    assertThat(next.highWaterMillis()).isGreaterThan(promised.mayIssueUntilMillis());
  }

  /**
   * A holder with small limits (maxTtl 1s) in a prefix whose fleet renews every 3.3 s: the prefix
   * is not idle by the fleet's maxTtl, so it marks no loss for everyone, and it is refused in the
   * fleet's namespace while the fleet lives.
   */
  @Test
  void acquire_smallLimitsInABusyPrefix_marksNoLossAndIsRefusedBesideTheFleet() throws Exception {
    TestRedis.shared().putInService(uri);
    open().acquire(request("fleet", 10_000, LeaseLimits.DEFAULT));
    Thread.sleep(1_200); // between two of the fleet's renewals
    LeaseLimits tiny = new LeaseLimits(Duration.ofSeconds(1), Duration.ZERO);
    long now = System.currentTimeMillis();
    open()
        .acquire(
            new AcquireRequest(
                "other", 4, 0, 0, "s", new LeaseTerms(Duration.ofSeconds(1), now, now), tiny));

    now = System.currentTimeMillis();
    Lease third =
        open()
            .acquire(
                new AcquireRequest(
                    "third", 4, "n", new LeaseTerms(Duration.ofSeconds(10), now, now + 10_000)));
    assertThat(third.highWaterMillis()).isLessThan(third.coordinatorNowMillis());
    assertThatThrownBy(() -> open().acquire(request("s2", 1_000, tiny)))
        .isInstanceOf(LeaseTermsException.class)
        .hasMessageContaining("1 live holder(s) with maxTtl 30s, maxSkew 5s");
  }
}
