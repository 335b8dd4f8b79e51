package io.snowid.redis;

import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseCoordinators;
import io.snowid.lease.LeaseTerms;
import io.snowid.testkit.LeaseCoordinatorContract;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

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

  @AfterAll
  static void deleteKeys() {
    TestRedis.shared().deletePrefix(URI);
  }
}
