package io.snowid.redis;

import io.lettuce.core.RedisClient;
import io.snowid.lease.LeaseCoordinator;
import io.snowid.testkit.LeaseCoordinatorContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;

/**
 * The coordinator on an application's own Lettuce client ({@link RedisLeaseProvider#open(
 * RedisClient, String)}) passes the contract every coordinator passes, on the real server at
 * 127.0.0.1:6379 with a key prefix of its own. All coordinators share one client, as the beans of
 * an application do; a "crash" closes one coordinator's connection, never the client.
 */
@Tag("integration")
class RedisClientLeaseCoordinatorTest extends LeaseCoordinatorContract {
  private static final String PREFIX = TestRedis.uniquePrefix();
  private static RedisClient client;

  @BeforeAll
  static void openTheApplicationsClient() {
    client = RedisClient.create(TestRedis.shared().uri());
  }

  /** In service, as RedisLeaseCoordinatorTest explains. */
  @BeforeEach
  void putThePrefixInService() {
    TestRedis.shared().putInService("redis://x?prefix=" + PREFIX);
  }

  @Override
  protected LeaseCoordinator newCoordinator() {
    return RedisLeaseProvider.open(client, "prefix=" + PREFIX);
  }

  @Override
  protected void deleteNamespace(String namespace) {
    TestRedis.shared().deleteNamespace("redis://x?prefix=" + PREFIX, namespace);
  }

  @Override
  protected void crash(LeaseCoordinator coordinator) {
    coordinator.close();
  }

  @AfterAll
  static void deleteKeysAndCloseTheClient() {
    TestRedis.shared().deletePrefix("redis://x?prefix=" + PREFIX);
    client.shutdown();
  }
}
