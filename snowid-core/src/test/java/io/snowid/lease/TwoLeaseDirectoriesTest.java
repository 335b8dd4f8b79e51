package io.snowid.lease;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.Snowflake;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two lease directories of one host, one namespace and layout (a program that calls {@code
 * SnowId.next()} and also builds a generator on another {@code file:} directory): they must not
 * hand out the same node values while both hold them, in one JVM or in two. Through the public API
 * only, so with the host's own claims ({@code /tmp/snowid-claims}): the node values each gets
 * depend on what else runs on the host, only that they differ is asserted.
 */
class TwoLeaseDirectoriesTest {
  /**
   * A namespace of this run: the claims live in the host's one place, which other processes of the
   * host (and their clocks) share; the mechanism is the same for every namespace.
   */
  private static final String NS =
      "?namespace=two-dirs-" + java.util.UUID.randomUUID().toString().substring(0, 8);

  /** On here: the build turns them off for every other test. */
  private static final String CLAIMS_ON = "-Dsnowid.host-claim=on";

  @TempDir Path dir;
  private final List<Process> started = new ArrayList<>();
  private String property;

  @BeforeEach
  void claimsOn() {
    property = System.setProperty("snowid.host-claim", "on");
  }

  @AfterEach
  void killLeftovers() {
    started.forEach(Process::destroyForcibly);
    if (property == null) {
      System.clearProperty("snowid.host-claim");
    } else {
      System.setProperty("snowid.host-claim", property);
    }
  }

  @Test
  void oneJvm_generatorsOnTwoDirectories_differentNodeValues() {
    try (Snowflake a =
            Snowflake.builder()
                .layout("twitter")
                .nodeSource("file:" + dir.resolve("leases-a") + NS)
                .build();
        Snowflake b =
            Snowflake.builder()
                .layout("twitter")
                .nodeSource("file:" + dir.resolve("leases-b") + NS)
                .build()) {
      assertThat(b.node()).isNotEqualTo(a.node());
    }
  }

  private Process start(String source, Path out, String... jvmOptions) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    command.add(CLAIMS_ON);
    command.addAll(List.of(jvmOptions));
    command.addAll(
        List.of(
            "-Xmx128m",
            "-cp",
            location(TwoDirectoriesMain.class) + File.pathSeparator + location(Snowflake.class),
            TwoDirectoriesMain.class.getName(),
            source,
            out.toString()));
    Process p =
        new ProcessBuilder(command)
            .redirectError(dir.resolve(out.getFileName() + ".err").toFile())
            .start();
    started.add(p);
    return p;
  }

  /** Where a class was loaded from: the test classes, or snowid's own. */
  private static String location(Class<?> c) {
    try {
      return Paths.get(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (URISyntaxException e) {
      throw new AssertionError(e);
    }
  }

  private String awaitReady(Process p, Path out) throws IOException {
    String line =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))
            .readLine();
    assertThat(line)
        .as(
            "%s; stderr: %s",
            out.getFileName(), Files.readString(dir.resolve(out.getFileName() + ".err")))
        .startsWith("ready ");
    return line;
  }

  private static void go(Process p) throws IOException {
    OutputStream in = p.getOutputStream();
    in.write('\n');
    in.flush();
  }

  private static Set<Long> ids(Path file) throws IOException {
    Set<Long> ids = new HashSet<>();
    try (DataInputStream in = new DataInputStream(Files.newInputStream(file))) {
      while (true) {
        ids.add(in.readLong());
      }
    } catch (EOFException end) {
      return ids;
    }
  }

  /**
   * The program of the class comment: SnowId.next() on one directory, a generator on another, here
   * in two processes that both hold their leases and have issued their first ID before either takes
   * the rest.
   */
  @Tag("integration")
  @Test
  void twoProcesses_twoDirectoriesBothHeld_differentNodeValuesNoSharedIds() throws Exception {
    Path outA = dir.resolve("a.ids");
    Path outB = dir.resolve("b.ids");
    Process a = start("snowid", outA, "-Dsnowid.node=file:" + dir.resolve("leases-a") + NS);
    String readyA = awaitReady(a, outA);
    Process b = start("file:" + dir.resolve("leases-b") + NS, outB);
    String readyB = awaitReady(b, outB);

    go(a);
    go(b);
    assertThat(a.waitFor(60, TimeUnit.SECONDS) && b.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(a.exitValue()).as(Files.readString(dir.resolve("a.ids.err"))).isZero();
    assertThat(b.exitValue()).as(Files.readString(dir.resolve("b.ids.err"))).isZero();

    assertThat(readyB).isNotEqualTo(readyA);
    Set<Long> idsA = ids(outA);
    Set<Long> idsB = ids(outB);
    assertThat(idsA).isNotEmpty();
    assertThat(idsB).isNotEmpty();
    Set<Long> both = new HashSet<>(idsA);
    both.retainAll(idsB);
    assertThat(both).as("IDs both processes issued").isEmpty();
  }
}
