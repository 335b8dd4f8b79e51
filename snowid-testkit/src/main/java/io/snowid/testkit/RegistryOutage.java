package io.snowid.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.Layout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.LongStream;

/**
 * Holders running while their registry stops and starts again: three holder JVMs; each fences
 * before its lease could have expired (saying "not renewed in time"), nothing is issued from the
 * end of the leases until the registry is back, each resumes and issues after it, and no ID appears
 * twice over the whole run. Every network coordinator runs it against a private server of its own:
 *
 * <pre>{@code
 * RegistryOutage.check(uri, registry, dir, Duration.ofSeconds(2), Duration.ZERO, holder -> {});
 * }</pre>
 */
public final class RegistryOutage {
  private static final Layout LAYOUT = Layout.twitter(); // HolderMain's layout
  private static final Duration PATIENCE = Duration.ofMinutes(2);

  private RegistryOutage() {}

  /**
   * Runs the scenario.
   *
   * @param uri a node URI with a namespace of the test's own and a lease time of {@code ttl}, on a
   *     registry that is in service (a fresh one would make the holders wait their start)
   * @param downAtLeast how long the registry stays down at the least, after every holder fenced
   *     (past every lease, so that the registry could hand the ids out again)
   * @param whileFenced more checks of a fenced holder, with the registry still down
   */
  public static void check(
      String uri,
      StartDuringOutage.Registry registry,
      Path dir,
      Duration ttl,
      Duration downAtLeast,
      Consumer<Fenced> whileFenced)
      throws Exception {
    List<HolderJvm> holders = new ArrayList<>();
    try {
      for (int i = 0; i < 3; i++) {
        holders.add(HolderJvm.start(uri, dir, "holder-" + i));
      }
      for (HolderJvm h : holders) {
        h.await("ready", 0, PATIENCE);
      }
      Thread.sleep(500);
      int[] before = holders.stream().mapToInt(HolderJvm::lineCount).toArray();

      registry.stop();
      long down = System.currentTimeMillis(); // every lease was last renewed before this
      for (int i = 0; i < holders.size(); i++) {
        String[] fenced = holders.get(i).await("fenced", before[i], PATIENCE).text().split(" ", 3);
        assertThat(Long.parseLong(fenced[1]))
            .as("holder-" + i + " fenced since")
            .isLessThan(down + ttl.toMillis());
        assertThat(fenced[2]).contains("not renewed in time");
        whileFenced.accept(new Fenced(holders.get(i), before[i]));
      }
      Thread.sleep(downAtLeast.toMillis());
      long restarted = System.currentTimeMillis();
      registry.start();
      for (int i = 0; i < holders.size(); i++) {
        holders.get(i).await("resumed", before[i], PATIENCE);
      }
      Thread.sleep(300);

      List<long[]> all = new ArrayList<>();
      for (HolderJvm h : holders) {
        h.stop();
        all.add(Arrays.stream(h.ids()).filter(id -> id >= 0).toArray());
      }
      long[] merged = all.stream().flatMapToLong(Arrays::stream).sorted().toArray();
      assertThat(merged).doesNotHaveDuplicates();
      assertThat(LongStream.of(merged).map(RegistryOutage::timeOf))
          .as("nothing issued from the end of the leases until the registry was back")
          .noneMatch(t -> t >= down + ttl.toMillis() && t <= restarted);
      for (long[] ids : all) {
        assertThat(timeOf(ids[ids.length - 1])).isGreaterThan(restarted);
      }
    } finally {
      for (HolderJvm h : holders) {
        h.close();
      }
    }
  }

  /** A fenced holder, and how many lines of its status it had written before the outage. */
  public record Fenced(HolderJvm holder, int linesBefore) {}

  private static long timeOf(long id) {
    return LAYOUT.decode(id).timestampMillis();
  }
}
