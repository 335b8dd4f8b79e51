package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.snowid.testkit.ChildJvm;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * One lease directory per host, used by two real OS users. The test runs as root (CI does) and
 * creates the second user with useradd for its run, then removes it. Its processes run through
 * setpriv with that user's ids, on a copy of the classes it can read. {@code java.io.tmpdir} of
 * both is a folder like /tmp (sticky, writable by all), so both use the default lease directory
 * there, as processes of two users on one host use /tmp/snowid-leases.
 */
@Tag("integration")
class SeveralUsersTest {
  private static String user;
  private static int uid;
  private static int gid;

  private Path tmp;
  private Path classes;
  private final List<Process> started = new ArrayList<>();

  @BeforeAll
  static void createUser() throws Exception {
    assumeThat(uidOfThisProcess())
        .as("runs as root (CI does), to create a second OS user and run processes as it")
        .isZero();
    user = "snowid-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
    exec("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", user);
    uid = Integer.parseInt(exec("id", "-u", user).trim());
    gid = Integer.parseInt(exec("id", "-g", user).trim());
  }

  @AfterAll
  static void removeUser() throws Exception {
    if (user != null) {
      exec("userdel", user);
    }
  }

  @BeforeEach
  void folders() throws Exception {
    tmp = Files.createTempDirectory(Paths.get("/tmp"), "snowid-users-");
    Files.setAttribute(tmp, "unix:mode", 01777); // like /tmp
    classes = Files.createDirectory(tmp.resolve("classes"));
    Files.setAttribute(classes, "unix:mode", 0755);
    copy(SnowId.class, classes.resolve("core")); // readable by the second user, unlike ~/.m2
    copy(NodeEnvironmentMain.class, classes.resolve("test"));
  }

  @AfterEach
  void clean() throws IOException {
    for (Process p : started) {
      p.destroyForcibly();
    }
    try (Stream<Path> all = Files.walk(tmp)) {
      all.sorted(Comparator.reverseOrder()).forEach(SeveralUsersTest::delete);
    }
  }

  private static void delete(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int uidOfThisProcess() throws IOException {
    return (Integer) Files.getAttribute(Paths.get("/proc/self"), "unix:uid");
  }

  private static String exec(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(String.join(" ", command) + ": " + out).isZero();
    return out;
  }

  /** Copies the classes directory or jar a class was loaded from, readable by every user. */
  private static void copy(Class<?> c, Path to) throws IOException {
    Path from;
    try {
      from = Paths.get(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    try (Stream<Path> all = Files.walk(from)) {
      for (Path p : (Iterable<Path>) all::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
        Files.setAttribute(target, "unix:mode", Files.isDirectory(p) ? 0755 : 0644);
      }
    }
  }

  /**
   * Starts NodeEnvironmentMain as root, or as the second user; stdout goes to the returned file.
   */
  private Process start(boolean secondUser, Path out, String... args) throws IOException {
    ProcessBuilder pb =
        ChildJvm.of(
            NodeEnvironmentMain.class,
            List.of("-Djava.io.tmpdir=" + tmp, "-XX:-UsePerfData"),
            args);
    List<String> command = pb.command();
    command.set(
        command.indexOf("-cp") + 1, classes.resolve("core") + ":" + classes.resolve("test"));
    if (secondUser) {
      command.addAll(0, List.of("setpriv", "--reuid=" + uid, "--regid=" + gid, "--clear-groups"));
    }
    pb.environment().keySet().removeIf(k -> k.startsWith("SNOWID_") || k.startsWith("KUBERNETES"));
    pb.directory(tmp.toFile())
        .redirectOutput(out.toFile())
        .redirectError(out.resolveSibling(out.getFileName() + ".err").toFile());
    Process p = pb.start();
    started.add(p);
    return p;
  }

  private static String firstLine(Path out, Process p) throws Exception {
    for (int i = 0; i < 3000; i++) {
      String s = Files.exists(out) ? Files.readString(out, StandardCharsets.UTF_8) : "";
      if (s.contains("\n")) {
        return s.substring(0, s.indexOf('\n'));
      }
      if (!p.isAlive() && i > 0) {
        return Files.readString(out, StandardCharsets.UTF_8).trim();
      }
      Thread.sleep(10);
    }
    throw new AssertionError("no line from the child in 30 s");
  }

  /** The first user creates the default directory shared (1777), so the second starts too. */
  @Test
  void snowIdNext_twoUsersOnTheDefaultLeaseDirectory_getDifferentNodeIds() throws Exception {
    Path stop = tmp.resolve("stop");
    Process rootProcess = start(false, tmp.resolve("root.out"), stop.toString());
    String first = firstLine(tmp.resolve("root.out"), rootProcess);
    Process other = start(true, tmp.resolve("other.out"), stop.toString());
    String second = firstLine(tmp.resolve("other.out"), other);
    Files.createFile(stop);

    assertThat(first).startsWith("ok ");
    assertThat(second).as("the second user's process").startsWith("ok ");
    String rootNode = first.substring(first.indexOf('{'));
    String otherNode = second.substring(second.indexOf('{'));
    assertThat(otherNode).isNotEqualTo(rootNode);
    assertThat(rootProcess.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(other.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(other.exitValue()).isZero();

    Path leases = tmp.resolve("snowid-leases");
    assertThat(Files.getAttribute(leases, "unix:mode", LinkOption.NOFOLLOW_LINKS))
        .isEqualTo(041777); // a directory, sticky, writable by all
    try (Stream<Path> files = Files.walk(leases)) {
      assertThat(files.filter(f -> f.toString().endsWith(".lease")))
          .extracting(f -> Files.getAttribute(f, "unix:uid", LinkOption.NOFOLLOW_LINKS))
          .containsExactlyInAnyOrder(0, uid);
    }
  }

  /**
   * A directory an older snowid created for its user alone: one line, the path and one fix that
   * covers its namespace folders too.
   */
  @Test
  void snowIdNext_leaseDirectoryOnlyItsOwnerMayWrite_refusedNamingPathAndChmod() throws Exception {
    Path leases = Files.createDirectory(tmp.resolve("snowid-leases"));
    Files.setAttribute(leases, "unix:mode", 0755);

    Process other = start(true, tmp.resolve("other.out"));
    String line = firstLine(tmp.resolve("other.out"), other);
    assertThat(other.waitFor(30, TimeUnit.SECONDS)).isTrue();

    assertThat(other.exitValue()).isEqualTo(3);
    assertThat(line)
        .isEqualTo(
            "refused LeaseDirectoryException: lease directory "
                + leases
                + " refused: it cannot be written by this user (uid "
                + uid
                + "; it belongs to root, group 0, mode 0755); to share it among the users of this"
                + " host, chmod 1777 "
                + leases
                + " "
                + leases
                + "/*/ as root; among the members of a group (this user one of them), chgrp -R"
                + " GROUP "
                + leases
                + " and chmod 3775 "
                + leases
                + " "
                + leases
                + "/*/");
    try (Stream<Path> inside = Files.list(leases)) {
      assertThat(inside).isEmpty();
    }
    assertThat(Files.readString(tmp.resolve("other.out.err"), StandardCharsets.UTF_8))
        .as("no WARN about a plan whose lease failed")
        .doesNotContain("WARNING");
  }
}
