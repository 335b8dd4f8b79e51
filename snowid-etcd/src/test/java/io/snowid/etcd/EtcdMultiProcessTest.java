package io.snowid.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.testkit.HolderJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
  private static final int JVMS = 8;
  @TempDir Path dir;
  private final String prefix = TestEtcd.uniquePrefix();
  private final String uri = TestEtcd.shared().uri() + "?namespace=fleet&ttl=2s&prefix=" + prefix;
  private final List<HolderJvm> holders = new ArrayList<>();

  @AfterEach
  void cleanUp() {
    holders.forEach(HolderJvm::close);
    TestEtcd.shared().deletePrefix(prefix);
  }

  @Test
  void nextId_eightJvmsOnOneNamespace_distinctNodesAndNoDuplicates() throws Exception {
    TestEtcd.shared().putInService(prefix);
    for (int i = 0; i < JVMS; i++) {
      holders.add(HolderJvm.start(uri, dir, "holder-" + i));
    }
    List<String> nodes = new ArrayList<>();
    for (HolderJvm h : holders) {
      nodes.add(h.await("ready", 0, Duration.ofMinutes(2)).text());
    }
    assertThat(nodes).doesNotHaveDuplicates();

    Thread.sleep(3_000); // all eight issue at once for a while, renewing every 667 ms

    List<long[]> all = new ArrayList<>();
    for (HolderJvm h : holders) {
      h.stop();
      all.add(h.ids());
    }
    int total = 0;
    for (long[] ids : all) {
      long[] issued = Arrays.stream(ids).filter(id -> id >= 0).toArray();
      assertThat(issued.length).isGreaterThan(100);
      for (int i = 1; i < issued.length; i++) {
        assertThat(issued[i]).isGreaterThan(issued[i - 1]);
      }
      total += issued.length;
    }
    long[] merged =
        all.stream().flatMapToLong(Arrays::stream).filter(id -> id >= 0).sorted().toArray();
    assertThat(merged).hasSize(total);
    for (int i = 1; i < merged.length; i++) {
      assertThat(merged[i]).as("duplicate ID").isNotEqualTo(merged[i - 1]);
    }
  }
}
