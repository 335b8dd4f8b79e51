package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.testkit.ChildJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Four JVMs take IDs through {@link SnowId#next()} with the default local leases; one is killed
 * with SIGKILL and restarted. No ID may appear twice, and the restarted process, which gets the
 * dead one's worker id back, starts after everything the dead one issued.
 */
@Tag("integration")
class MultiProcessTest {
  @TempDir Path dir;
  private final List<Process> started = new ArrayList<>();

  /** A failed assertion must not leave JVMs running (the survivors run up to a minute). */
  @AfterEach
  void killLeftovers() {
    started.forEach(Process::destroyForcibly);
  }

  /** Created once the restarted process has finished: the survivors then finish too. */
  private Path stop() {
    return dir.resolve("stop");
  }

  private Process start(Path out, long millis, boolean untilStop) throws IOException {
    Process p =
        ChildJvm.of(
                MultiProcessMain.class,
                List.of("-Dsnowid.node=file:" + dir.resolve("leases")),
                out.toString(),
                Long.toString(millis),
                untilStop ? stop().toString() : "")
            .redirectError(
                ProcessBuilder.Redirect.appendTo(dir.resolve(out.getFileName() + ".err").toFile()))
            .start();
    started.add(p);
    return p;
  }

  private static String awaitReady(Process p) throws IOException {
    BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String line = r.readLine();
    assertThat(line).as("process printed its node").startsWith("ready ");
    return line;
  }

  private String stderrOf(List<Path> outputs) throws IOException {
    StringBuilder sb = new StringBuilder("stderr of the processes:\n");
    for (Path out : outputs) {
      sb.append(text(dir.resolve(out.getFileName() + ".err"))).append('\n');
    }
    return sb.toString();
  }

  private static String text(Path text) throws IOException {
    return Files.exists(text) ? Files.readString(text) : "";
  }

  private static long[] read(Path file) throws IOException {
    return ChildJvm.readIds(file);
  }

  @Test
  void snowIdNext_fourJvmsOneKilledAndRestarted_noDuplicates() throws Exception {
    List<Path> outputs = new ArrayList<>();
    List<Process> processes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      Path out = dir.resolve("ids-" + i);
      outputs.add(out);
      // The survivors run until the restarted process is done (the stop file): one that finished
      // early on a slow machine would free a lower id than the dead one's for the restarted one.
      processes.add(start(out, 60_000, true));
    }
    List<String> nodes = new ArrayList<>();
    for (Process p : processes) {
      nodes.add(awaitReady(p));
    }
    assertThat(nodes).doesNotHaveDuplicates();

    Process victim = processes.get(0);
    Thread.sleep(500);
    victim.destroyForcibly(); // SIGKILL: no shutdown hook, no release
    assertThat(victim.waitFor(10, TimeUnit.SECONDS)).isTrue();
    long[] killed = read(outputs.get(0));
    assertThat(killed.length).isGreaterThan(1000);

    Path restartedOut = dir.resolve("ids-restarted");
    Process restarted = start(restartedOut, 1_500, false);
    String restartedNode = awaitReady(restarted);
    assertThat(restarted.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(restarted.exitValue()).as(text(dir.resolve("ids-restarted.err"))).isZero();
    Files.createFile(stop());
    for (Process p : processes.subList(1, 4)) {
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as(stderrOf(outputs)).isZero();
    }

    List<long[]> all = new ArrayList<>();
    all.add(killed);
    for (Path out : outputs.subList(1, 4)) {
      all.add(read(out));
    }
    long[] again = read(restartedOut);
    all.add(again);
    int total = 0;
    for (long[] ids : all) {
      for (int i = 1; i < ids.length; i++) {
        assertThat(ids[i]).isGreaterThan(ids[i - 1]);
      }
      total += ids.length;
    }
    long[] merged = all.stream().flatMapToLong(Arrays::stream).sorted().toArray();
    assertThat(merged).hasSize(total);
    for (int i = 1; i < merged.length; i++) {
      assertThat(merged[i]).as("duplicate ID").isNotEqualTo(merged[i - 1]);
    }
    // the restarted process took the dead one's worker id and started after its high-water mark
    assertThat(restartedNode).isEqualTo(nodes.get(0));
    assertThat(again[0]).isGreaterThan(killed[killed.length - 1]);
  }
}
