package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * IDs that could not be written are never reported as success ({@code generate > /dev/full}, or
 * with stdout closed, does not exit 0): a write error is exit code 1 and one line on stderr.
 */
class OutputFailureTest {
  @TempDir Path dir;

  /**
   * {@code snowid ARGS} in a JVM of its own; stdout as {@code redirect} says (a shell fragment).
   */
  private Finished run(String redirect, String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add("bash");
    command.add("-c");
    command.add("exec \"$@\" " + redirect);
    command.add("snowid");
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(SnowIdCommand.class.getName());
    command.addAll(List.of(args));
    Path err = dir.resolve("stderr.txt");
    Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("exited").isTrue();
    return new Finished(p.exitValue(), Files.readString(err, StandardCharsets.UTF_8));
  }

  private record Finished(int exit, String stderr) {}

  @Tag("integration")
  @Test
  void generate_toDevFull_exits1WithOneLine() throws Exception {
    assumeThat(new File("/dev/full")).exists();

    Finished r =
        run(">/dev/full", "generate", "-n", "100000", "--node", "static:worker=1,datacenter=1");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.stderr().lines())
        .singleElement()
        .asString()
        .startsWith("snowid: cannot write to standard output")
        .contains("No space left on device")
        .endsWith("the output is incomplete");
  }

  @Tag("integration")
  @Test
  void generate_stdoutClosed_exits1WithOneLine() throws Exception {
    Finished r = run(">&-", "generate", "-n", "5", "--node", "static:worker=1,datacenter=1");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.stderr().lines())
        .singleElement()
        .asString()
        .startsWith("snowid: cannot write to standard output");
  }

  @Tag("integration")
  @Test
  void layout_toDevFull_exits1() throws Exception {
    assumeThat(new File("/dev/full")).exists();

    Finished r = run(">/dev/full", "layout");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.stderr().lines()).singleElement().asString().startsWith("snowid: cannot write");
  }

  /** In-process: a writer that fails after some output stands for any broken stdout. */
  @Test
  void generate_writerFailsMidway_stopsAndExits1() {
    Writer failing =
        new Writer() {
          private int written;

          @Override
          public void write(char[] buf, int off, int len) throws IOException {
            written += len;
            if (written > 100_000) {
              throw new IOException("disk full");
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    StringWriter err = new StringWriter();

    int exit =
        SnowIdCommand.execute(
            new PrintWriter(failing),
            new PrintWriter(err, true),
            "generate",
            "-n",
            "1000000",
            "--node",
            "static:worker=1,datacenter=1");

    assertThat(exit).isEqualTo(1);
    assertThat(err.toString().lines())
        .singleElement()
        .asString()
        .startsWith("snowid: cannot write to standard output");
  }
}
