package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.snowid.testkit.ChildJvm;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
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
 * Two real OS users on a lease directory created by root beforehand ({@code install -d -m 1777}):
 * the attacker creates the namespace folder first, so it owns it and may delete any file in it. It
 * deletes every file of the victim's in it (the lease file) while the victim issues under a long
 * lease. A newcomer of the victim's user with a short lease time then takes the same node id: it
 * must not issue one ID the victim issued.
 */
@Tag("integration")
class SharedDirectoryAttackTest {
  private static final List<String> USERS = new ArrayList<>();
  private static final List<Integer> UIDS = new ArrayList<>();

  private Path tmp;
  private Path classes;
  private final List<Process> started = new ArrayList<>();

  @BeforeAll
  static void createUsers() throws Exception {
    assumeThat((Integer) Files.getAttribute(Paths.get("/proc/self"), "unix:uid"))
        .as("runs as root (CI does), to create two OS users and run processes as them")
        .isZero();
    for (int i = 0; i < 2; i++) {
      String user = "snowid-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
      exec("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", user);
      USERS.add(user);
      UIDS.add(Integer.parseInt(exec("id", "-u", user).trim()));
    }
  }

  @AfterAll
  static void removeUsers() throws Exception {
    for (String user : USERS) {
      exec("userdel", user);
    }
  }

  @BeforeEach
  void folders() throws Exception {
    tmp = Files.createTempDirectory(Paths.get("/tmp"), "snowid-attack-");
    Files.setAttribute(tmp, "unix:mode", 01777);
    classes = Files.createDirectory(tmp.resolve("classes"));
    Files.setAttribute(classes, "unix:mode", 0755);
    copy(SnowId.class, classes.resolve("core"));
    copy(SharedLeaseIssuerMain.class, classes.resolve("test"));
  }

  @AfterEach
  void clean() throws IOException {
    for (Process p : started) {
      p.destroyForcibly();
    }
    try (Stream<Path> all = Files.walk(tmp)) {
      all.sorted(Comparator.reverseOrder()).forEach(SharedDirectoryAttackTest::delete);
    }
  }

  private static void delete(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String exec(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(String.join(" ", command) + ": " + out).isZero();
    return out;
  }

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

  /** Starts SharedLeaseIssuerMain as user {@code u} with a node setting; stdout to {@code out}. */
  private Process start(int u, String node, Path out, String... args) throws IOException {
    ProcessBuilder pb =
        ChildJvm.of(
            SharedLeaseIssuerMain.class,
            List.of(
                "-Djava.io.tmpdir=" + tmp,
                "-XX:-UsePerfData",
                "-Dsnowid.node=" + node,
                "-Dsnowid.datacenter-id=1",
                // as hosts that share the lease directory only: on one host the victim's
                // host-wide claim would keep the newcomer off its node id altogether
                "-Dsnowid.host-claim=off"),
            args);
    List<String> command = pb.command();
    command.set(
        command.indexOf("-cp") + 1, classes.resolve("core") + ":" + classes.resolve("test"));
    command.addAll(
        0,
        List.of("setpriv", "--reuid=" + UIDS.get(u), "--regid=" + UIDS.get(u), "--clear-groups"));
    pb.environment().keySet().removeIf(k -> k.startsWith("SNOWID_") || k.startsWith("KUBERNETES"));
    pb.directory(tmp.toFile())
        .redirectOutput(out.toFile())
        .redirectError(ProcessBuilder.Redirect.INHERIT);
    Process p = pb.start();
    started.add(p);
    return p;
  }

  private static String firstLine(Path out, Process p) throws Exception {
    for (int i = 0; i < 6000; i++) {
      String s = Files.exists(out) ? Files.readString(out, StandardCharsets.UTF_8) : "";
      if (s.contains("\n")) {
        return s.substring(0, s.indexOf('\n'));
      }
      if (!p.isAlive() && i > 0) {
        return Files.readString(out, StandardCharsets.UTF_8).trim();
      }
      Thread.sleep(10);
    }
    throw new AssertionError("no line from the child in 60 s");
  }

  private static int uidOf(Path f) {
    try {
      return (Integer) Files.getAttribute(f, "unix:uid");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Set<String> ids(Path out) throws IOException {
    Set<String> ids = new HashSet<>();
    for (String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
      if (line.matches("[0-9]+")) {
        ids.add(line);
      }
    }
    return ids;
  }

  @Test
  void generate_namespaceFolderOwnerDeletesVictimsFiles_noDuplicate() throws Exception {
    int victim = 0;
    int attacker = 1;
    Path leases = Files.createDirectory(tmp.resolve("snowid-leases")); // as root, beforehand
    Files.setAttribute(leases, "unix:mode", 01777);
    String dir = "file:" + leases;

    Process first = start(attacker, dir, tmp.resolve("attacker.out"), "count", "1");
    assertThat(firstLine(tmp.resolve("attacker.out"), first)).startsWith("ok ");
    assertThat(first.waitFor(60, TimeUnit.SECONDS)).isTrue();
    Path ns;
    try (Stream<Path> inside = Files.list(leases)) {
      ns = inside.filter(Files::isDirectory).findFirst().orElseThrow();
    }
    assertThat(Files.getAttribute(ns, "unix:uid")).isEqualTo(UIDS.get(attacker));

    Path stop = tmp.resolve("stop");
    Process holder =
        start(
            victim, dir + "?ttl=10s&renew=5s", tmp.resolve("victim.out"), "until", stop.toString());
    String victimNode = firstLine(tmp.resolve("victim.out"), holder);
    assertThat(victimNode).startsWith("ok ");

    // Right after a renewal of the victim: the victim then issues for a whole renewal interval
    // before it can notice, and the newcomer starts within it.
    Path victimsLease;
    try (Stream<Path> inside = Files.list(ns)) {
      victimsLease =
          inside
              .filter(f -> f.toString().endsWith(".lease"))
              .filter(f -> uidOf(f) == UIDS.get(victim))
              .findFirst()
              .orElseThrow();
    }
    Object renewed = Files.getLastModifiedTime(victimsLease);
    for (int i = 0; i < 3000 && renewed.equals(Files.getLastModifiedTime(victimsLease)); i++) {
      Thread.sleep(5);
    }
    exec(
        "setpriv",
        "--reuid=" + UIDS.get(attacker),
        "--regid=" + UIDS.get(attacker),
        "--clear-groups",
        "sh",
        "-c",
        "find \"$1\" -maxdepth 1 -type f -user \"$2\" -delete",
        "sh",
        ns.toString(),
        USERS.get(victim));
    try (Stream<Path> left = Files.list(ns)) {
      // the attacker's own file: datacenter 1, worker 0 is the packed node value 32
      assertThat(left.map(f -> f.getFileName().toString())).containsExactly("32.lease");
    }

    Process newcomer =
        start(victim, dir + "?startWait=30s", tmp.resolve("newcomer.out"), "count", "200000");
    String newcomerNode = firstLine(tmp.resolve("newcomer.out"), newcomer);
    assertThat(newcomer.waitFor(120, TimeUnit.SECONDS)).isTrue();
    Files.createFile(stop);
    assertThat(holder.waitFor(60, TimeUnit.SECONDS)).isTrue();

    assertThat(newcomerNode).as("the newcomer took the victim's node").isEqualTo(victimNode);
    Set<String> victims = ids(tmp.resolve("victim.out"));
    Set<String> newcomers = ids(tmp.resolve("newcomer.out"));
    assertThat(newcomers).hasSize(200_000);
    assertThat(victims).hasSizeGreaterThan(1000);
    newcomers.retainAll(victims);
    assertThat(newcomers).as("IDs both issued").isEmpty();
  }
}
