package io.snowid.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.Layout;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A {@link HolderMain} child JVM, started with this test's class path: a process that takes IDs
 * through a lease of a node URI, for tests of coordinators with real processes (several holders on
 * one namespace, a registry that goes away under them).
 */
public final class HolderJvm implements AutoCloseable {
  /** A line the child printed, and when (this JVM's clock) it was read. */
  public record Line(String text, long readAtMillis) {}

  private final Process process;
  private final Path ids;
  private final Path err;
  private final Path go; // null: it builds at once
  private final List<Line> lines = new ArrayList<>();

  private HolderJvm(Process process, Path ids, Path err, Path go) {
    this.process = process;
    this.ids = ids;
    this.err = err;
    this.go = go;
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                  synchronized (lines) {
                    lines.add(new Line(line, System.currentTimeMillis()));
                    lines.notifyAll();
                  }
                }
              } catch (IOException e) {
                // the process ended
              }
            },
            "holder output " + ids.getFileName());
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Starts a holder of a lease of {@code uri}; its IDs go to {@code dir/NAME.ids}, its standard
   * error to {@code dir/NAME.err}.
   */
  public static HolderJvm start(String uri, Path dir, String name) throws IOException {
    return start(uri, dir, name, Map.of());
  }

  /**
   * As {@link #start(String, Path, String)}, with these variables added to the child's environment
   * (e.g. libfaketime's, to step its wall clock).
   */
  public static HolderJvm start(String uri, Path dir, String name, Map<String, String> environment)
      throws IOException {
    return start(uri, dir, name, environment, null);
  }

  /**
   * As {@link #start(String, Path, String)}, but the holder builds its generator only at {@link
   * #go()}: once it printed {@code waiting for FILE}, its JVM is up, so that a test can have it
   * lease at a moment of its choosing, not a JVM start-up later (seconds on a loaded machine).
   */
  public static HolderJvm startOnGo(String uri, Path dir, String name) throws IOException {
    return start(uri, dir, name, Map.of(), dir.resolve(name + ".go"));
  }

  private static HolderJvm start(
      String uri, Path dir, String name, Map<String, String> environment, Path go)
      throws IOException {
    Path ids = dir.resolve(name + ".ids");
    Path err = dir.resolve(name + ".err");
    ProcessBuilder child =
        ChildJvm.of(
                HolderMain.class,
                List.of("-Xmx128m", "-XX:TieredStopAtLevel=1"),
                uri,
                ids.toString())
            .redirectError(err.toFile());
    child.environment().putAll(environment);
    if (go != null) {
      child.environment().put(HolderMain.GO, go.toString());
    }
    return new HolderJvm(child.start(), ids, err, go);
  }

  /** Lets a holder started by {@link #startOnGo} build its generator. */
  public void go() throws IOException {
    if (go == null) {
      throw new IllegalStateException("not started on go: it built at once");
    }
    Files.createFile(go);
  }

  /** Waits for the first line (printed at or after {@code fromIndex}) that starts with a word. */
  public Line await(String word, int fromIndex, Duration within) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    synchronized (lines) {
      while (true) {
        for (int i = fromIndex; i < lines.size(); i++) {
          if (lines.get(i).text().startsWith(word + " ")) {
            return lines.get(i);
          }
        }
        long left = deadline - System.nanoTime();
        if (left <= 0 || (!process.isAlive() && lines.isEmpty())) {
          throw new AssertionError(
              "no '" + word + "' line within " + within + "; lines " + lines + "; " + stderr());
        }
        lines.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
      }
    }
  }

  /** How many lines it printed so far. */
  public int lineCount() {
    synchronized (lines) {
      return lines.size();
    }
  }

  /** The lines it printed so far. */
  public List<Line> lines() {
    synchronized (lines) {
      return List.copyOf(lines);
    }
  }

  /** Closes the child's standard input: it releases its lease and exits 0. */
  public void stop() throws IOException, InterruptedException {
    process.getOutputStream().close();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("holder stopped; " + stderr()).isTrue();
    assertThat(process.exitValue()).as(stderr()).isZero();
  }

  /** The IDs it wrote, -1 where it was fenced. */
  public long[] ids() throws IOException {
    return ChildJvm.readIds(ids);
  }

  /**
   * Asserts what a newcomer owes an old holder after a registry's loss: the newcomer (stopped, as
   * this one) leased this holder's first node values, issued its first ID after {@code afterMillis}
   * (ID time) and after this holder's last ID of those node values, and none of this holder's IDs
   * again. (A holder that was fenced and leased again may have taken other node values meanwhile:
   * its IDs there cannot meet the newcomer's.)
   *
   * @return this holder's last ID time of those node values, for a test's check that the loss fell
   *     in its lease
   */
  public long assertNewcomerStartedAfter(HolderJvm newcomer, long afterMillis) throws IOException {
    Layout twitter = Layout.twitter(); // HolderMain's layout
    long[] old = Arrays.stream(ids()).filter(id -> id >= 0).toArray();
    long[] next = Arrays.stream(newcomer.ids()).filter(id -> id >= 0).toArray();
    Map<String, Long> node = twitter.decode(old[0]).fields();
    assertThat(twitter.decode(next[0]).fields())
        .as("the newcomer leased the old holder's node values")
        .isEqualTo(node);
    int last = old.length - 1; // IDs in the order issued: the last one of those node values
    while (!twitter.decode(old[last]).fields().equals(node)) {
      last--;
    }
    long lastOfOld = twitter.decode(old[last]).timestampMillis();
    assertThat(twitter.decode(next[0]).timestampMillis())
        .as("the newcomer's first ID time, after the bound")
        .isGreaterThan(afterMillis)
        .as("the newcomer's first ID time, after the old holder's last")
        .isGreaterThan(lastOfOld);
    Set<Long> seen = Arrays.stream(old).boxed().collect(Collectors.toSet());
    assertThat(Arrays.stream(next).filter(seen::contains).count()).as("IDs both issued").isZero();
    return lastOfOld;
  }

  /** Its standard error so far, for assertion messages. */
  public String stderr() {
    try {
      return "stderr of " + ids.getFileName() + ":\n" + Files.readString(err);
    } catch (IOException e) {
      return "no stderr: " + e;
    }
  }

  /** Kills it (SIGKILL), if it still runs. */
  @Override
  public void close() {
    process.destroyForcibly();
  }
}
