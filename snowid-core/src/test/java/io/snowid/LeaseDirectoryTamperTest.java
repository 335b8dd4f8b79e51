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
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real JVMs take IDs through {@link SnowId#next()} from one lease directory while it is deleted and
 * replaced under them (rm -rf of the directory under a running holder must not let a newcomer take
 * its worker). No ID may appear twice. The limits are small (maxTtl 2 s, maxSkew 1 s): a directory
 * replaced by a copy is a loss of its marks, which every newcomer then waits out by them.
 */
@Tag("integration")
class LeaseDirectoryTamperTest {
  @TempDir Path dir;

  private Path leases() {
    return dir.resolve("leases");
  }

  private Process start(String name, long millis) throws IOException {
    return ChildJvm.of(
            MultiProcessMain.class,
            List.of("-Dsnowid.node=file:" + leases() + "?ttl=1s&maxTtl=2s&maxSkew=1s"),
            dir.resolve(name).toString(),
            Long.toString(millis))
        .redirectError(ProcessBuilder.Redirect.appendTo(dir.resolve(name + ".err").toFile()))
        .start();
  }

  private static String awaitReady(Process p) throws IOException {
    BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String line = r.readLine();
    assertThat(line).as("process printed its node").startsWith("ready ");
    return line;
  }

  private long[] read(String name) throws IOException {
    return ChildJvm.readIds(dir.resolve(name));
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** Replaces every file by an identical copy, as a backup restore would. */
  private static void replaceWithCopy(Path root) throws IOException {
    Path copy = root.resolveSibling(root.getFileName() + ".restore");
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.toList()) {
        Path target = copy.resolve(root.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target); // reading from this JVM is fine: it holds no lease here
        }
      }
    }
    deleteTree(root);
    Files.move(copy, root);
  }

  private static void signal(String name, Process p) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(p.pid())).start();
    assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(kill.exitValue()).isZero();
  }

  @Test
  void snowIdNext_leaseDirectoryDeletedThenReplacedUnderRunningHolders_noDuplicates()
      throws Exception {
    List<String> names = List.of("a", "b", "c");
    List<Process> processes = new ArrayList<>();
    Process a = start("a", 9_000);
    processes.add(a);
    String nodeOfA = awaitReady(a);

    // Stopped, the holder cannot notice the deletion before the newcomer takes its worker; when it
    // resumes it must notice before issuing anything the newcomer could issue.
    signal("STOP", a);
    deleteTree(leases());
    Process b = start("b", 6_000);
    processes.add(b);
    String nodeOfB = awaitReady(b);
    signal("CONT", a);
    // the newcomer got the very worker the holder had: the directory forgot it
    assertThat(nodeOfB).isEqualTo(nodeOfA);

    Thread.sleep(1_000);
    replaceWithCopy(leases());
    Process c = start("c", 3_000);
    processes.add(c);
    awaitReady(c);

    for (int i = 0; i < processes.size(); i++) {
      Process p = processes.get(i);
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as(Files.readString(dir.resolve(names.get(i) + ".err"))).isZero();
    }
    List<long[]> all = new ArrayList<>();
    int total = 0;
    for (String name : names) {
      long[] ids = read(name);
      assertThat(ids.length).as("IDs of " + name).isGreaterThan(1_000);
      for (int i = 1; i < ids.length; i++) {
        assertThat(ids[i]).as("order within " + name).isGreaterThan(ids[i - 1]);
      }
      all.add(ids);
      total += ids.length;
    }
    long[] merged = all.stream().flatMapToLong(Arrays::stream).sorted().toArray();
    assertThat(merged).hasSize(total);
    long duplicates = 0;
    for (int i = 1; i < merged.length; i++) {
      if (merged[i] == merged[i - 1]) {
        duplicates++;
      }
    }
    assertThat(duplicates).as("duplicate IDs among " + total).isZero();
    // the holders noticed: each fenced and moved on rather than sharing a worker
    assertThat(Files.readString(dir.resolve("a.err"))).contains("lost");
  }
}
