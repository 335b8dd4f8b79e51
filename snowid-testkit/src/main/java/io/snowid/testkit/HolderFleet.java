package io.snowid.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Several holder processes on one namespace at once, the check every network coordinator runs with
 * real JVMs: each takes distinct node values, issues increasing IDs, and no ID appears twice across
 * the fleet.
 *
 * <pre>{@code
 * HolderFleet.check(TestRedis.shared().uri() + "?namespace=fleet&ttl=2s&prefix=…", dir, 8,
 *     Duration.ofSeconds(3));
 * }</pre>
 */
public final class HolderFleet {
  private HolderFleet() {}

  /**
   * Starts {@code jvms} {@link HolderJvm}s on {@code uri}, lets them all issue for {@code together}
   * once each is ready, stops them, and checks their IDs.
   */
  public static void check(String uri, Path dir, int jvms, Duration together) throws Exception {
    List<HolderJvm> holders = new ArrayList<>();
    try {
      for (int i = 0; i < jvms; i++) {
        holders.add(HolderJvm.start(uri, dir, "holder-" + i));
      }
      List<String> nodes = new ArrayList<>();
      for (HolderJvm h : holders) {
        nodes.add(h.await("ready", 0, Duration.ofMinutes(2)).text());
      }
      assertThat(nodes).as("the holders' node values").doesNotHaveDuplicates();

      Thread.sleep(together.toMillis()); // all of them issue at once for a while

      List<long[]> all = new ArrayList<>();
      for (HolderJvm h : holders) {
        h.stop();
        all.add(Arrays.stream(h.ids()).filter(id -> id >= 0).toArray());
      }
      int total = 0;
      for (long[] issued : all) {
        assertThat(issued.length).as("IDs of one holder").isGreaterThan(100);
        for (int i = 1; i < issued.length; i++) {
          assertThat(issued[i]).as("a holder's IDs in order").isGreaterThan(issued[i - 1]);
        }
        total += issued.length;
      }
      long[] merged = all.stream().flatMapToLong(Arrays::stream).sorted().toArray();
      assertThat(merged).hasSize(total);
      for (int i = 1; i < merged.length; i++) {
        assertThat(merged[i]).as("duplicate ID").isNotEqualTo(merged[i - 1]);
      }
    } finally {
      holders.forEach(HolderJvm::close);
    }
  }
}
