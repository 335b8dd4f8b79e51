package io.snowid.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseCoordinators;
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
 * The ZooKeeper backend passes the contract every coordinator passes, on the shared server at
 * 127.0.0.1:2181, opened by URI through {@link java.util.ServiceLoader}, under a chroot of its own
 * (each test a namespace of its own), deleted afterwards. The chroot is put in service before each
 * test, as a registry in production is; a new one is a loss, which ZooKeeperRegistryLossTest
 * covers.
 */
@Tag("integration")
class ZooKeeperLeaseCoordinatorTest extends LeaseCoordinatorContract {
  private static final String ROOT = TestZooKeeper.uniqueRoot();
  private static final String URI = TestZooKeeper.uri(ROOT);

  @BeforeEach
  void putTheChrootInService() {
    TestZooKeeper.putInService(TestZooKeeper.SHARED, ROOT);
  }

  @Override
  protected LeaseCoordinator newCoordinator() {
    return LeaseCoordinators.open(URI);
  }

  /** {@code deleteall ROOT/ns/NAMESPACE}. */
  @Override
  protected void deleteNamespace(String namespace) {
    TestZooKeeper.delete(TestZooKeeper.SHARED, ROOT + "/ns/" + namespace);
  }

  /**
   * A killed process stops renewing and never releases; its session ends when the ensemble stops
   * hearing from it. Closing ends the session at once (the ensemble deletes its ephemeral nodes),
   * without releasing: the records keep what the holder promised.
   */
  @Override
  protected void crash(LeaseCoordinator coordinator) {
    coordinator.close();
  }

  /**
   * Seeded random namespaces (size, fixed bits, and per id no record, a held lease or a released
   * one): the acquisitions take exactly the allowed ids that are not held, lowest first, and then
   * fail.
   */
  @Test
  void acquire_randomMasksAndLeases_takesTheFreeAllowedIdsInOrder() {
    Random random = new Random(20_261_127L);
    try (LeaseCoordinator c = LeaseCoordinators.open(URI)) {
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

  /** Ids up to 2^63: the walk and the node names are exact at the top. */
  @Test
  void acquire_fixedBitsIn63BitBlock_exactIds() {
    long size = 1L << 62;
    long top = size - 2;
    try (LeaseCoordinator c = LeaseCoordinators.open(URI)) {
      long now = System.currentTimeMillis();
      LeaseTerms t = new LeaseTerms(Duration.ofSeconds(2), now, now);
      assertThat(c.acquire(new AcquireRequest(namespace, size, top, top, "a", t)).nodeId())
          .isEqualTo(size - 2);
      assertThat(c.acquire(new AcquireRequest(namespace, size, top, top, "b", t)).nodeId())
          .isEqualTo(size - 1);
    }
  }

  private static LeaseTerms terms() {
    long now = System.currentTimeMillis();
    return new LeaseTerms(Duration.ofSeconds(30), now, now);
  }

  @AfterAll
  static void deleteNodes() {
    TestZooKeeper.delete(TestZooKeeper.SHARED, ROOT);
  }
}
