package io.snowid.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.InvalidSettingException;
import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseCoordinators;
import io.snowid.lease.LeaseListing;
import io.snowid.lease.LeaseTakenException;
import io.snowid.lease.LeaseTerms;
import io.snowid.node.NodeIdUnavailableException;
import io.snowid.testkit.LeaseCoordinatorContract;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Redis backend passes the contract every coordinator passes, on the real server at
 * 127.0.0.1:6379, opened by URI through {@link java.util.ServiceLoader}. The class has a key prefix
 * of its own (each test a namespace of its own), deleted afterwards.
 *
 * <p>The prefix is put in service before each test, as a registry in production is: the first
 * holder of a new prefix waits out a loss (it cannot tell a new registry from one that lost its
 * data), which {@code RedisLeaseRecoveryTest} covers; the contract is about a registry in service.
 */
@Tag("integration")
class RedisLeaseCoordinatorTest extends LeaseCoordinatorContract {
  private static final String URI =
      TestRedis.shared().uri() + "?prefix=" + TestRedis.uniquePrefix();

  @BeforeEach
  void putThePrefixInService() {
    TestRedis.shared().putInService(URI);
  }

  @Override
  protected LeaseCoordinator newCoordinator() {
    return LeaseCoordinators.open(URI);
  }

  /** A process killed by SIGKILL stops renewing and never releases: closing does just that. */
  @Override
  protected void deleteNamespace(String namespace) {
    TestRedis.shared().deleteNamespace(URI, namespace);
  }

  @Override
  protected void crash(LeaseCoordinator coordinator) {
    coordinator.close();
  }

  @Test
  void listAndReleaseAbandoned_areOneRoundTripEach() {
    try (RedisLeaseCoordinator c = (RedisLeaseCoordinator) LeaseCoordinators.open(URI)) {
      long now = System.currentTimeMillis();
      for (int i = 0; i < 5; i++) {
        c.acquire(
            new AcquireRequest(
                namespace, 8, "holder-" + i, new LeaseTerms(Duration.ofSeconds(2), now, now)));
      }
      long before = c.roundTrips();

      LeaseListing listing = c.list(namespace);
      long afterList = c.roundTrips();
      assertThatThrownBy(() -> c.releaseAbandoned(namespace, 0))
          .isInstanceOf(LeaseTakenException.class);

      assertThat(listing.leases()).hasSize(5);
      assertThat(afterList - before).isEqualTo(1);
      assertThat(c.roundTrips() - afterList).isEqualTo(1);
    }
  }

  private Lease acquire(RedisLeaseCoordinator c, long size, long mask, long match, String who) {
    long now = System.currentTimeMillis();
    return c.acquire(
        new AcquireRequest(
            namespace, size, mask, match, who, new LeaseTerms(Duration.ofSeconds(2), now, now)));
  }

  /**
   * Ids past 32 bits (Lua's bit library has 32) and up to 2^53 (its numbers are doubles): the walk
   * over the allowed ids and the answer are exact at the top, in one round trip each.
   */
  @Test
  void acquire_fixedBitsIn53BitBlock_exactIdsInOneRoundTrip() {
    long size = 1L << 53;
    long low = (1L << 52) - 1; // every bit but the top one fixed to 1: 2^52 - 1 and 2^53 - 1
    long top = size - 2; // every bit but the lowest fixed to 1: 2^53 - 2 and 2^53 - 1
    try (RedisLeaseCoordinator c = (RedisLeaseCoordinator) LeaseCoordinators.open(URI)) {
      long before = c.roundTrips();
      assertThat(acquire(c, size, low, low, "a").nodeId()).isEqualTo(low);
      assertThat(c.roundTrips() - before).isEqualTo(1);
      assertThat(acquire(c, size, top, top, "b").nodeId()).isEqualTo(size - 2);
      assertThat(acquire(c, size, low, low, "c").nodeId()).isEqualTo(size - 1);

      assertThatThrownBy(() -> acquire(c, size, top, top, "d"))
          .isInstanceOf(NodeIdUnavailableException.class)
          .hasMessageContaining("all 2 node ids of namespace " + namespace)
          .hasMessageContaining("(2 live leases)");
    }
  }

  /** The instance's last id past 32 bits is judged exactly against the new request's bits. */
  @Test
  void acquire_lastIdPast32Bits_reusedOnlyWhenTheRequestAllowsIt() {
    long size = 1L << 41;
    long last = (1L << 40) + 5;
    try (RedisLeaseCoordinator c = (RedisLeaseCoordinator) LeaseCoordinators.open(URI)) {
      c.release(acquire(c, size, size - 1, last, "svc"), Long.MIN_VALUE);

      Lease notAllowed = acquire(c, size, 1L << 40, 0, "svc");
      c.release(notAllowed, Long.MIN_VALUE);
      c.release(acquire(c, size, size - 1, last, "svc"), Long.MIN_VALUE);
      Lease allowed = acquire(c, size, 1L << 40, 1L << 40, "svc");

      assertThat(notAllowed.nodeId()).isZero();
      assertThat(allowed.nodeId()).isEqualTo(last);
    }
  }

  @Test
  void acquire_moreThan53NodeBits_refusedNamingTheLimit() {
    try (RedisLeaseCoordinator c = (RedisLeaseCoordinator) LeaseCoordinators.open(URI)) {
      long before = c.roundTrips();

      assertThatThrownBy(() -> acquire(c, 1L << 54, 0, 0, "wide"))
          .isInstanceOf(InvalidSettingException.class)
          .hasMessageContaining("node bits = 54")
          .hasMessageContaining("at most 53");
      assertThat(c.roundTrips()).isEqualTo(before);
    }
  }

  /**
   * Seeded random namespaces (size, fixed bits, and per id no record, a held lease or a released
   * one): the acquisitions take exactly the allowed ids that are not held, lowest first, and then
   * fail.
   */
  @Test
  void acquire_randomMasksAndLeases_takesTheFreeAllowedIdsInOrder() {
    Random random = new Random(20_261_127L);
    try (RedisLeaseCoordinator c = (RedisLeaseCoordinator) LeaseCoordinators.open(URI)) {
      for (int round = 0; round < 20; round++) {
        String ns = namespace + "-" + round;
        long size = 1L << (1 + random.nextInt(4));
        long mask = random.nextLong() & (size - 1);
        long match = random.nextLong() & mask;
        List<Long> expected = new ArrayList<>();
        for (long id = 0; id < size; id++) {
          int state = random.nextInt(3); // 0: no record, 1: held, 2: released
          if (state > 0) {
            Lease l = c.acquire(new AcquireRequest(ns, size, size - 1, id, "pin", terms()));
            if (state == 2) {
              c.release(l, Long.MIN_VALUE);
            }
          }
          if (state != 1 && (id & mask) == match) {
            expected.add(id);
          }
        }
        List<Long> taken = new ArrayList<>();
        for (int i = 0; i < expected.size(); i++) {
          taken.add(c.acquire(new AcquireRequest(ns, size, mask, match, "h", terms())).nodeId());
        }

        assertThat(taken).as("size %d, mask %d, match %d", size, mask, match).isEqualTo(expected);
        assertThatThrownBy(() -> c.acquire(new AcquireRequest(ns, size, mask, match, "h", terms())))
            .isInstanceOf(NodeIdUnavailableException.class);
      }
    }
  }

  private static LeaseTerms terms() {
    long now = System.currentTimeMillis();
    return new LeaseTerms(Duration.ofSeconds(30), now, now);
  }

  @AfterAll
  static void deleteKeys() {
    TestRedis.shared().deletePrefix(URI);
  }
}
