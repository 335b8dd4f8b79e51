package io.snowid.redis;

import io.snowid.testkit.HolderFleet;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Eight JVMs lease node values from one namespace on the shared Redis and take IDs for a few
 * seconds: each gets node values of its own, and no ID appears twice.
 */
@Tag("integration")
class RedisMultiProcessTest {
  @TempDir Path dir;
  private final String uri =
      TestRedis.shared().uri() + "?namespace=fleet&ttl=2s&prefix=" + TestRedis.uniquePrefix();

  @AfterEach
  void cleanUp() {
    TestRedis.shared().deletePrefix(uri);
  }

  @Test
  void nextId_eightJvmsOnOneNamespace_distinctNodesAndNoDuplicates() throws Exception {
    TestRedis.shared().putInService(uri);
    HolderFleet.check(uri, dir, 8, Duration.ofSeconds(3));
  }
}
