package io.snowid.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseCoordinators;
import io.snowid.lease.LeaseListing;
import io.snowid.lease.LeaseTakenException;
import io.snowid.lease.LeaseTerms;
import io.snowid.testkit.LeaseCoordinatorContract;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Redis backend passes the contract every coordinator passes, on the real server at
 * 127.0.0.1:6379, opened by URI through {@link java.util.ServiceLoader}. The class has a key prefix
 * of its own (each test a namespace of its own), deleted afterwards.
 *
 * <p>The prefix is put in service first, as a registry in production is: its first holder waits one
 * lease time (it cannot tell a new registry from one that lost its data), which {@code
 * RedisLeaseRecoveryTest} covers; the contract is about a registry in service.
 */
class RedisLeaseCoordinatorTest extends LeaseCoordinatorContract {
  private static final String URI =
      TestRedis.shared().uri() + "?prefix=" + TestRedis.uniquePrefix();

  @BeforeAll
  static void putThePrefixInService() throws InterruptedException {
    try (LeaseCoordinator c = LeaseCoordinators.open(URI)) {
      long now = System.currentTimeMillis();
      Lease first =
          c.acquire(
              new AcquireRequest(
                  "in-service", 1, "first", new LeaseTerms(Duration.ofSeconds(2), now, now)));
      c.release(first, Long.MIN_VALUE);
      while (System.currentTimeMillis() <= first.highWaterMillis()) {
        Thread.sleep(50);
      }
    }
  }

  @Override
  protected LeaseCoordinator newCoordinator() {
    return LeaseCoordinators.open(URI);
  }

  /** A process killed by SIGKILL stops renewing and never releases: closing does just that. */
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

  @AfterAll
  static void deleteKeys() {
    TestRedis.shared().deletePrefix(URI);
  }
}
