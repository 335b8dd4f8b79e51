package io.snowid.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.Layout;
import io.snowid.Snowflake;
import io.snowid.TimeSource;
import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseCoordinators;
import io.snowid.lease.LeaseLostException;
import io.snowid.lease.LeaseTakenException;
import io.snowid.lease.LeaseTerms;
import io.snowid.node.NodeIdUnavailableException;
import io.snowid.node.NodeLease;
import io.snowid.testkit.RegistryOutage;
import io.snowid.testkit.StartDuringOutage;
import io.snowid.testkit.TcpCut;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Redis going away, on private {@code redis-server}s that the tests stop and start (without
 * persistence, so a restart comes back empty); the shared server is never touched.
 */
@Tag("integration")
class RedisLeaseRecoveryTest {
  private static final Layout LAYOUT = Layout.twitter();

  /** Both node fields fixed: a namespace of one id, so every holder wants that very id. */
  private static final Map<String, Long> ONE_ID = Map.of("datacenter", 1L, "worker", 3L);

  @TempDir Path dir;
  private final List<AutoCloseable> opened = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (int i = opened.size() - 1; i >= 0; i--) {
      opened.get(i).close();
    }
  }

  private <T extends AutoCloseable> T open(T c) {
    opened.add(c);
    return c;
  }

  private TestRedis startRedis(String name, String... args) throws Exception {
    return open(TestRedis.startPrivate(dir.resolve(name), args));
  }

  private static long timeOf(long id) {
    return LAYOUT.decode(id).timestampMillis();
  }

  /**
   * The case the loss wait is for. Holder A keeps issuing under its lease while it cannot reach
   * Redis (cut off), and Redis restarts empty meanwhile: B, asking the empty Redis for the same
   * (only) id, gets it, and must start after everything A issued.
   */
  @Test
  void nextId_redisRestartedEmptyWhileOldHolderIsCutOff_newHolderStartsAfterAllItIssued()
      throws Exception {
    TestRedis redis = startRedis("redis");
    TcpCut cut = open(new TcpCut(redis.port()));
    String options = "?namespace=lost&ttl=5s&maxTtl=5s&maxSkew=1s";
    redis.putInService(redis.uri() + "?prefix=snowid");
    NodeLease leaseA =
        open(
            LeaseCoordinators.lease(
                "redis://127.0.0.1:" + cut.port() + options,
                LAYOUT,
                ONE_ID,
                TimeSource.monotonic()));
    Snowflake a = open(Snowflake.builder().layout(LAYOUT).lease(leaseA).build());
    List<Long> issuedByA = new ArrayList<>();
    AtomicLong lastIssuedAt = new AtomicLong();
    AtomicBoolean stop = new AtomicBoolean();
    Thread runA =
        new Thread(
            () -> {
              while (!stop.get()) {
                try {
                  long id = a.nextId();
                  synchronized (issuedByA) {
                    issuedByA.add(id);
                  }
                  lastIssuedAt.set(System.currentTimeMillis());
                } catch (LeaseLostException e) {
                  // fenced: A's lease ran out; it cannot reach Redis to get another
                }
              }
            });
    runA.start();
    try {
      while (lastIssuedAt.get() == 0) {
        Thread.sleep(10);
      }
      cut.cut();
      redis.shutdownNosave();
      redis.start();

      NodeLease leaseB =
          open(
              LeaseCoordinators.lease(
                  redis.uri() + options, LAYOUT, ONE_ID, TimeSource.monotonic()));
      long acquiredByB = System.currentTimeMillis();
      // A stands for another process; in one JVM a second live generator of A's values is
      // refused, so B's generator is built once A stopped at its deadline (its lease is B's now)
      while (a.nodeStatus().held()) {
        Thread.sleep(10);
      }
      Snowflake b = open(Snowflake.builder().layout(LAYOUT).lease(leaseB).build());
      long firstOfB = b.nextId();

      assertThat(b.node()).isEqualTo(a.node());
      assertThat(lastIssuedAt.get())
          .as("A was still issuing after B got the same node from the empty Redis")
          .isGreaterThan(acquiredByB);
      assertThat(a.nodeStatus().held()).isFalse();
      stop.set(true);
      runA.join();
      long maxOfA;
      synchronized (issuedByA) {
        maxOfA = issuedByA.stream().mapToLong(Long::longValue).max().orElseThrow();
      }
      assertThat(firstOfB).isGreaterThan(maxOfA);
      assertThat(timeOf(firstOfB)).isGreaterThan(timeOf(maxOfA));
    } finally {
      stop.set(true);
      runA.join();
    }
  }

  /** {@link RegistryOutage}: Redis shut down (nosave) under three holders, back empty. */
  @Test
  void nextId_redisDownAndBackEmpty_holdersFenceBeforeExpiryAndResumeWithoutDuplicates()
      throws Exception {
    TestRedis redis = startRedis("redis");
    redis.putInService(redis.uri() + "?prefix=snowid");
    RegistryOutage.check(
        redis.uri() + "?namespace=outage&ttl=2s&maxTtl=2s&maxSkew=1s",
        new StartDuringOutage.Registry() {
          @Override
          public void stop() throws Exception {
            redis.shutdownNosave();
          }

          @Override
          public void start() throws Exception {
            redis.start();
          }
        },
        dir,
        Duration.ofSeconds(2),
        Duration.ZERO,
        fenced -> {});
  }

  /** A restarted server has forgotten the scripts: the next call sends the text once. */
  @Test
  void renew_afterScriptFlush_sendsTheScriptOnceMore() throws Exception {
    TestRedis redis = startRedis("redis");
    redis.putInService(redis.uri() + "?prefix=snowid");
    RedisLeaseCoordinator c = open(RedisLeaseCoordinator.open(redis.uri()));
    Lease l = c.acquire(request("a", 2_000));
    redis.cli("script", "flush");

    long before = c.roundTrips();
    Lease renewed = c.renew(l, terms(2_000));
    long afterFlush = c.roundTrips() - before;
    c.renew(renewed, terms(2_000));

    assertThat(afterFlush).isEqualTo(2);
    assertThat(c.roundTrips() - before - afterFlush).isEqualTo(1);
  }

  /**
   * A flushed (or restarted empty) Redis: the holder's renewal says the lease is lost, and the next
   * holder of the id starts after maxTtl + maxSkew + 1 s by Redis's clock (the default limits),
   * since it cannot know what the old holders issued.
   */
  @Test
  void renew_afterFlushall_leaseTakenAndTheNextHolderWaitsMaxTtlAndMaxSkew() throws Exception {
    TestRedis redis = startRedis("redis");
    redis.putInService(redis.uri() + "?prefix=snowid");
    RedisLeaseCoordinator c = open(RedisLeaseCoordinator.open(redis.uri()));
    Lease l = c.acquire(request("a", 2_000));
    redis.cli("flushall");

    assertThatThrownBy(() -> c.renew(l, terms(2_000)))
        .isInstanceOf(LeaseTakenException.class)
        .hasMessageContaining("restarted empty or was flushed");
    Lease next = c.acquire(request("b", 2_000));

    assertThat(next.nodeId()).isEqualTo(l.nodeId());
    assertThat(next.highWaterMillis() - next.coordinatorNowMillis()).isEqualTo(36_000);
  }

  /**
   * wait=1: a grant counts once a replica acknowledged it; with the replica gone it does not, and
   * the id is not left taken.
   */
  @Test
  void acquire_waitForOneReplicaThatIsDown_grantDoesNotCount() throws Exception {
    TestRedis primary = startRedis("primary");
    TestRedis replica =
        startRedis("replica", "--replicaof", "127.0.0.1", Integer.toString(primary.port()));
    primary.putInService(primary.uri() + "?prefix=snowid");
    RedisLeaseCoordinator c = open(RedisLeaseCoordinator.open(primary.uri() + "?wait=1"));
    Lease first = awaitReplicated(c);
    c.release(first, Long.MIN_VALUE);

    replica.shutdownNosave();

    assertThatThrownBy(() -> c.acquire(request("b", 2_000)))
        .isInstanceOf(NodeIdUnavailableException.class)
        .hasMessageContaining("acknowledged by 0 of the 1 replicas it waits for (wait=1)");
    assertThat(primary.cli("zcard", "{snowid}:recovery:held")).isEqualTo("0");
  }

  /** redis-sentinel://: the lease lives on the master that Sentinel names. */
  @Test
  void acquire_throughSentinel_leasesOnTheMaster() throws Exception {
    TestRedis master = startRedis("master");
    master.putInService(master.uri() + "?prefix=snowid");
    TestRedis sentinel = open(TestRedis.startSentinel(dir.resolve("sentinel"), master));
    RedisLeaseCoordinator c =
        open(
            RedisLeaseCoordinator.open(
                "redis-sentinel://127.0.0.1:" + sentinel.port() + "?sentinelMasterId=main"));

    Lease l = c.acquire(request("a", 2_000));

    assertThat(c.describe())
        .isEqualTo("redis-sentinel://127.0.0.1:" + sentinel.port() + "?sentinelMasterId=main");
    assertThat(master.cli("zcard", "{snowid}:recovery:held")).isEqualTo("1");
    c.release(l, Long.MIN_VALUE);
  }

  /** Acquires once the replica is in sync (it starts a moment after the primary). */
  private static Lease awaitReplicated(RedisLeaseCoordinator c) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (true) {
      try {
        return c.acquire(request("a", 2_000));
      } catch (NodeIdUnavailableException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(100);
      }
    }
  }

  private static LeaseTerms terms(long ttl) {
    long now = System.currentTimeMillis();
    return new LeaseTerms(Duration.ofMillis(ttl), now, now + ttl);
  }

  private static AcquireRequest request(String instance, long ttl) {
    return new AcquireRequest("recovery", 1, instance, terms(ttl));
  }
}
