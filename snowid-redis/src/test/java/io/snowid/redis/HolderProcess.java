package io.snowid.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.testkit.ChildJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A {@link RedisHolderMain} child JVM, started with this test's class path. */
final class HolderProcess implements AutoCloseable {
  /** A line the child printed, and when (this JVM's clock) it was read. */
  record Line(String text, long readAtMillis) {}

  private final Process process;
  private final Path ids;
  private final Path err;
  private final List<Line> lines = new ArrayList<>();

  private HolderProcess(Process process, Path ids, Path err) {
    this.process = process;
    this.ids = ids;
    this.err = err;
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

  static HolderProcess start(String uri, Path dir, String name) throws IOException {
    Path ids = dir.resolve(name + ".ids");
    Path err = dir.resolve(name + ".err");
    Process p =
        ChildJvm.of(
                RedisHolderMain.class,
                List.of("-Xmx128m", "-XX:TieredStopAtLevel=1"),
                uri,
                ids.toString())
            .redirectError(err.toFile())
            .start();
    return new HolderProcess(p, ids, err);
  }

  /** Waits for the first line (printed at or after {@code fromIndex}) that starts with a word. */
  Line await(String word, int fromIndex, Duration within) throws InterruptedException {
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

  int lineCount() {
    synchronized (lines) {
      return lines.size();
    }
  }

  List<Line> lines() {
    synchronized (lines) {
      return List.copyOf(lines);
    }
  }

  /** Closes the child's standard input: it releases its lease and exits 0. */
  void stop() throws IOException, InterruptedException {
    process.getOutputStream().close();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("holder stopped; " + stderr()).isTrue();
    assertThat(process.exitValue()).as(stderr()).isZero();
  }

  /** The IDs it wrote, -1 where it was fenced. */
  long[] ids() throws IOException {
    return ChildJvm.readIds(ids);
  }

  String stderr() {
    try {
      return "stderr of " + ids.getFileName() + ":\n" + Files.readString(err);
    } catch (IOException e) {
      return "no stderr: " + e;
    }
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }
}
