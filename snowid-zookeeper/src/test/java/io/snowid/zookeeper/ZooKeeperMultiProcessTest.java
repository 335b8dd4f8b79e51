package io.snowid.zookeeper;

import io.snowid.testkit.HolderFleet;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Eight JVMs lease node values from one namespace on the shared ZooKeeper and take IDs for a few
 * seconds: each gets node values of its own, and no ID appears twice.
 */
@Tag("integration")
class ZooKeeperMultiProcessTest {
  @TempDir Path dir;
  private final String root = TestZooKeeper.uniqueRoot();
  private final String uri = TestZooKeeper.uri(root) + "?namespace=fleet&ttl=4s";

  @AfterEach
  void cleanUp() {
    TestZooKeeper.delete(TestZooKeeper.SHARED, root);
  }

  @Test
  void nextId_eightJvmsOnOneNamespace_distinctNodesAndNoDuplicates() throws Exception {
    TestZooKeeper.putInService(TestZooKeeper.SHARED, root);
    HolderFleet.check(uri, dir, 8, Duration.ofSeconds(3));
  }
}
