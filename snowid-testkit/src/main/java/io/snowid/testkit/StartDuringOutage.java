package io.snowid.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.Layout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A process that starts while its registry is down, beside holders that were running before: the
 * newcomer waits (its {@code connectWait}), saying so once per attempt, takes its lease once the
 * registry answers and issues from then on; the holders fence while it is down and resume; no ID is
 * issued twice. Every network coordinator runs it against a private server of its own:
 *
 * <pre>{@code
 * StartDuringOutage.check(uri + "&connectWait=60s", new StartDuringOutage.Registry() {
 *   public void stop() throws Exception { redis.shutdownNosave(); }
 *   public void start() throws Exception { redis.start(); }
 * }, dir, Duration.ofSeconds(5));
 * }</pre>
 */
public final class StartDuringOutage {
  private static final Layout LAYOUT = Layout.twitter(); // HolderMain's layout
  private static final Duration PATIENCE = Duration.ofMinutes(2);

  private StartDuringOutage() {}

  /** A registry of the test's own that can be stopped and started again. */
  public interface Registry {
    /** Stops it: nothing answers on its address until {@link #start()}. */
    void stop() throws Exception;

    /** Starts it on the same address; returns once it answers. */
    void start() throws Exception;
  }

  /**
   * Runs two holders on {@code uri}, stops the registry, starts a third holder while it is down,
   * starts the registry again after {@code outage} (or later, once the third has tried twice: a JVM
   * may start slowly on a loaded machine), and checks what each did.
   *
   * @param uri a node URI with a namespace of the test's own, short lease terms, and a {@code
   *     connectWait} longer than {@code outage}
   */
  public static void check(String uri, Registry registry, Path dir, Duration outage)
      throws Exception {
    List<HolderJvm> holders = new ArrayList<>();
    try {
      for (int i = 0; i < 2; i++) {
        holders.add(HolderJvm.start(uri, dir, "running-" + i));
      }
      for (HolderJvm h : holders) {
        h.await("ready", 0, PATIENCE);
      }
      Thread.sleep(300);

      registry.stop();
      HolderJvm newcomer = HolderJvm.start(uri, dir, "newcomer");
      holders.add(newcomer);
      Thread.sleep(outage.toMillis());
      // the outage lasts at least until the newcomer has tried twice (a JVM may start slowly)
      long patience = System.nanoTime() + PATIENCE.toNanos();
      while (!newcomer.stderr().contains("attempt 2;") && System.nanoTime() < patience) {
        Thread.sleep(100);
      }
      assertThat(newcomer.stderr())
          .as("the newcomer says why it waits, once per attempt")
          .contains("retrying in")
          .contains("attempt 2;");
      assertThat(newcomer.lineCount())
          .as("the newcomer issued nothing while the registry was down")
          .isZero();

      long up = System.currentTimeMillis(); // nothing answered before this
      registry.start();
      newcomer.await("ready", 0, PATIENCE);
      for (HolderJvm h : holders.subList(0, 2)) {
        int fenced = indexOf(h, "fenced");
        assertThat(fenced)
            .as("a running holder fenced while the registry was down")
            .isNotNegative();
        h.await("resumed", fenced, PATIENCE);
      }
      Thread.sleep(300);

      List<Long> all = new ArrayList<>();
      for (HolderJvm h : holders) {
        h.stop();
        Arrays.stream(h.ids()).filter(id -> id >= 0).forEach(all::add);
      }
      assertThat(all).as("IDs of all three processes").doesNotHaveDuplicates();
      long[] mine = Arrays.stream(newcomer.ids()).filter(id -> id >= 0).toArray();
      assertThat(mine).as("the newcomer's IDs").isNotEmpty();
      assertThat(LAYOUT.decode(mine[0]).timestampMillis())
          .as("the newcomer's first ID time, after the registry answered again")
          .isGreaterThan(up);
    } finally {
      for (HolderJvm h : holders) {
        h.close();
      }
    }
  }

  private static int indexOf(HolderJvm holder, String word) {
    List<HolderJvm.Line> lines = holder.lines();
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).text().startsWith(word + " ")) {
        return i;
      }
    }
    return -1;
  }
}
