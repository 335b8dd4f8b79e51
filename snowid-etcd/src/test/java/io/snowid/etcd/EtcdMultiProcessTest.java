package io.snowid.etcd;

import io.snowid.testkit.HolderFleet;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Eight JVMs lease node values from one namespace on the shared etcd and take IDs for a few
 * seconds: each gets node values of its own, and no ID appears twice.
 */
@Tag("integration")
class EtcdMultiProcessTest {
  @TempDir Path dir;
  private final String prefix = TestEtcd.uniquePrefix();
  private final String uri = TestEtcd.shared().uri() + "?namespace=fleet&ttl=2s&prefix=" + prefix;

  @AfterEach
  void cleanUp() {
    TestEtcd.shared().deletePrefix(prefix);
  }

  @Test
  void nextId_eightJvmsOnOneNamespace_distinctNodesAndNoDuplicates() throws Exception {
    TestEtcd.shared().putInService(prefix);
    HolderFleet.check(uri, dir, 8, Duration.ofSeconds(3)); // renewing every 667 ms meanwhile
  }
}
