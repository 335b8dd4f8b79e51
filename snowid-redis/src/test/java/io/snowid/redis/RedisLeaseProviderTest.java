package io.snowid.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.InvalidSettingException;
import io.snowid.Snowflake;
import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseCoordinators;
import io.snowid.lease.LeaseTakenException;
import io.snowid.lease.LeaseTerms;
import io.snowid.node.NodeIdUnavailableException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The Redis provider and coordinator on the shared server: URIs, secrets, keys, round trips. */
@Tag("integration")
class RedisLeaseProviderTest {
  private final String prefix = TestRedis.uniquePrefix();
  private final String uri = TestRedis.shared().uri() + "?prefix=" + prefix;
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

  private static LeaseTerms terms(long ttl) {
    long now = System.currentTimeMillis();
    return new LeaseTerms(Duration.ofMillis(ttl), now, now + ttl);
  }

  private static AcquireRequest request(long size, String instance, long ttl) {
    return new AcquireRequest("ns", size, instance, terms(ttl));
  }

  private String cli(String... args) throws Exception {
    return TestRedis.shared().cli(args);
  }

  @Test
  void supports_redisSchemesOnly() {
    RedisLeaseProvider p = new RedisLeaseProvider();
    assertThat(p.supports("redis://h")).isTrue();
    assertThat(p.supports("rediss://h:6380/1")).isTrue();
    assertThat(p.supports("redis-sentinel://h:26379?sentinelMasterId=m")).isTrue();
    assertThat(p.supports("file:/tmp/x")).isFalse();
    assertThat(p.supports("redis-socket:///tmp/redis.sock")).isFalse();
    assertThat(LeaseCoordinators.provider("redis://127.0.0.1"))
        .isInstanceOf(RedisLeaseProvider.class);
  }

  @Test
  void nodeSource_uriWithLeaseOptionsInTheSameQuery_issuesIds() {
    TestRedis.shared().putInService(uri);
    String node = "redis://127.0.0.1:6379?namespace=orders&ttl=3s&prefix=" + prefix;
    try (Snowflake gen = Snowflake.builder().layout("twitter").nodeSource(node).build()) {
      long first = gen.nextId();
      assertThat(gen.nextId()).isGreaterThan(first);
      assertThat(gen.nodeStatus().source())
          .startsWith("redis://127.0.0.1:6379?prefix=" + prefix + " node id ");
    }
    assertThat(TestRedis.shared().keys(uri))
        .anyMatch(k -> k.startsWith("{" + prefix + "}:orders."));
  }

  @Test
  void describe_credentialsInTheUri_neverShown() {
    assertThat(RedisSettings.parse("redis://app:s3cr3t-pw@10.0.0.1:6380/2").describe())
        .isEqualTo("redis://10.0.0.1:6380/2");
    assertThat(RedisSettings.parse("rediss://s3cr3t-pw@cache.example:6390").describe())
        .isEqualTo("rediss://cache.example:6390");
    assertThat(
            RedisSettings.parse(
                    "redis-sentinel://:s3cr3t-pw@s1:26379,s2:26380/1?sentinelMasterId=main&wait=1")
                .describe())
        .isEqualTo("redis-sentinel://s1:26379,s2:26380/1?sentinelMasterId=main");
  }

  @Test
  void open_wrongPassword_failsWithoutShowingIt() {
    assertThatThrownBy(
            () ->
                LeaseCoordinators.lease(
                    "redis://app:s3cr3t-pw@127.0.0.1:6379?namespace=x",
                    io.snowid.Layout.twitter(),
                    java.util.Map.of(),
                    io.snowid.TimeSource.monotonic()))
        .isInstanceOf(NodeIdUnavailableException.class)
        .hasMessageContaining("redis://127.0.0.1:6379")
        .hasMessageNotContaining("s3cr3t-pw");
  }

  @Test
  void open_unknownOption_namesTheFormWithoutThePassword() {
    assertThatThrownBy(
            () -> LeaseCoordinators.open("redis://:s3cr3t-pw@127.0.0.1:6379?namepsace=x"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("namepsace")
        .hasMessageContaining("prefix=NAME, wait=0..16")
        .hasMessageNotContaining("s3cr3t-pw");
    assertThatThrownBy(() -> LeaseCoordinators.open("redis://127.0.0.1:6379?wait=99"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("0..16");
  }

  @Test
  void open_nothingListening_nodeIdUnavailable() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    assertThatThrownBy(() -> LeaseCoordinators.open("redis://127.0.0.1:" + port))
        .isInstanceOf(NodeIdUnavailableException.class)
        .hasMessageContaining("redis://127.0.0.1:" + port + " cannot be reached");
  }

  @Test
  void acquire_1023Of1024Held_oneRoundTripTakesTheFreeOne() {
    TestRedis.shared().putInService(uri);
    RedisLeaseCoordinator fleet = open();
    List<Lease> leases = new ArrayList<>();
    for (int i = 0; i < 1024; i++) {
      leases.add(fleet.acquire(request(1024, "holder-" + i, 60_000)));
    }
    assertThat(leases.stream().mapToLong(Lease::nodeId).distinct().count()).isEqualTo(1024);
    Lease gone = leases.get(700);
    fleet.release(gone, System.currentTimeMillis());

    RedisLeaseCoordinator newcomer = open();
    long before = newcomer.roundTrips();
    Lease taken = newcomer.acquire(request(1024, "newcomer", 60_000));

    assertThat(newcomer.roundTrips() - before).isEqualTo(1);
    assertThat(taken.nodeId()).isEqualTo(gone.nodeId());
    assertThat(taken.highWaterMillis()).isGreaterThanOrEqualTo(gone.coordinatorNowMillis());
    assertThatThrownBy(() -> newcomer.acquire(request(1024, "one-too-many", 60_000)))
        .isInstanceOf(NodeIdUnavailableException.class)
        .hasMessageContaining("all 1024 node ids of namespace ns")
        .hasMessageContaining("(1024 live leases)");
    assertThat(newcomer.roundTrips() - before).isEqualTo(2);
  }

  @Test
  void release_leavesNoHolderOnlyTheMarkAndKeysThatExpire() throws Exception {
    TestRedis.shared().putInService(uri);
    RedisLeaseCoordinator c = open();
    Lease l = c.acquire(request(4, "svc", 2_000));
    long issued = System.currentTimeMillis();
    c.release(l, issued);

    String tag = "{" + prefix + "}:ns:";
    assertThat(cli("zcard", tag + "held")).isEqualTo("0");
    assertThat(cli("hget", tag + "ids", Long.toString(l.nodeId())))
        .isEqualTo("svc - - " + issued + " -");
    for (String key : List.of(tag + "ids", tag + "last", tag + "state")) {
      assertThat(Long.parseLong(cli("pttl", key))).isBetween(1L, 30_000L + 120_000L);
    }
    assertThat(Long.parseLong(cli("pttl", "{" + prefix + "}:registry")))
        .isBetween(1L, Duration.ofDays(7).toMillis());
  }

  @Test
  void renew_expiredButNobodyTookIt_keepsTheLease() throws Exception {
    TestRedis.shared().putInService(uri);
    RedisLeaseCoordinator c = open();
    Lease l = c.acquire(request(4, "slow", 300));
    awaitRedisTimePast(l.expiresAtMillis());

    Lease renewed = c.renew(l, terms(2_000));

    assertThat(renewed.nodeId()).isEqualTo(l.nodeId());
    assertThat(renewed.expiresAtMillis()).isEqualTo(renewed.coordinatorNowMillis() + 2_000);
  }

  @Test
  void renew_expiredAndTakenByAnother_leaseTaken() throws Exception {
    TestRedis.shared().putInService(uri);
    Lease l = open().acquire(request(1, "slow", 300));
    awaitRedisTimePast(l.expiresAtMillis());
    Lease other = open().acquire(request(1, "fast", 2_000));
    assertThat(other.nodeId()).isEqualTo(l.nodeId());

    assertThatThrownBy(() -> open().renew(l, terms(2_000)))
        .isInstanceOf(LeaseTakenException.class)
        .hasMessageContaining("expired and taken by another holder");
  }

  /** Waits until Redis's own clock passes a time. */
  private void awaitRedisTimePast(long millis) throws Exception {
    while (true) {
      String[] time = cli("time").split("\\s+", -1);
      if (Long.parseLong(time[0]) * 1000 + Long.parseLong(time[1]) / 1000 > millis) {
        return;
      }
      Thread.sleep(20);
    }
  }

  @Test
  void acquire_firstHoldersOfANewPrefix_waitMaxTtlAndMaxSkewFromItsStart() {
    RedisLeaseCoordinator c = open();
    Lease first = c.acquire(request(4, "a", 2_000));
    Lease second = c.acquire(request(4, "b", 2_000));

    // the default limits, not the holder's ttl: a holder Redis forgot may have had maxTtl
    assertThat(first.highWaterMillis() - first.coordinatorNowMillis()).isEqualTo(36_000);
    // counted from when the prefix's state began, not from each request
    assertThat(second.highWaterMillis()).isEqualTo(first.highWaterMillis());
  }

  @Test
  void acquire_newNamespaceOfAPrefixInService_doesNotWait() {
    TestRedis.shared().putInService(uri);
    Lease l = open().acquire(request(4, "a", 2_000));
    assertThat(l.highWaterMillis()).isLessThan(l.coordinatorNowMillis());
  }
}
