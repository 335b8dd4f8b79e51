package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One logging stack in the command: a WARN of the core (which logs through System.Logger) comes out
 * once, through SLF4J and the command's one configuration, formatted like the server's own lines.
 */
@Tag("integration")
class LoggingTest {
  /** slf4j-simple as simplelogger.properties configures it: time, level, short name, message. */
  private static final String LINE =
      "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}(Z|[+-]\\d\\d:\\d\\d) (INFO|WARN|ERROR) \\S+ - .+";

  @TempDir Path dir;

  @Test
  void coreWarn_appearsOnceFormattedLikeTheServersLines() throws Exception {
    String node = "file:" + dir + "?namespace=logs";
    // A first run makes the namespace's directory and its node id 0.
    assertThat(Cli.run("generate", "--node", node, "--layout", "westid").exit()).isZero();
    Path id0;
    try (Stream<Path> files = Files.walk(dir)) {
      id0 = files.filter(f -> f.getFileName().toString().equals("0.lease")).findFirst().get();
    }
    // Something that is not a lease file where node id 0's should be: the core warns and skips it.
    Files.delete(id0);
    Files.createDirectory(id0);

    String stderr;
    try (ServeProcess serve = ServeProcess.start(dir, "--node", node, "--layout", "westid")) {
      assertThat(serve.terminate()).isZero();
      stderr = serve.stderr();
    }

    List<String> lines = stderr.lines().toList();
    assertThat(lines).allMatch(l -> l.matches(LINE), "every line as " + LINE);
    assertThat(lines.stream().filter(l -> l.contains("is not a regular file")))
        .singleElement()
        .asString()
        .matches(LINE)
        .contains(" WARN lease - skipping node id 0: " + id0 + " is not a regular file");
    assertThat(lines.stream().filter(l -> l.contains("snowid serving on")))
        .singleElement()
        .asString()
        .contains(" INFO SnowIdServer - snowid serving on http://");
    assertThat(lines).anyMatch(l -> l.contains(" INFO lease - node {worker=1} leased from "));
  }
}
