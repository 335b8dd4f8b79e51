package io.snowid.lease;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.Snowflake;
import java.io.File;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * In a container with its own lease directory, a process that leases twice (two generators, a
 * command that builds two) logs the container WARN once: a fresh JVM, since "once" is per process.
 */
class ContainerWarningOnceTest {
  @TempDir Path dir;

  @Test
  void twoLeasesInOneContainerProcess_logTheWarningOnce() throws Exception {
    Path err = dir.resolve("err.txt");
    Process p =
        new ProcessBuilder(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m",
                "-cp",
                location(ContainerWarningMain.class)
                    + File.pathSeparator
                    + location(Snowflake.class),
                ContainerWarningMain.class.getName(),
                dir.resolve("leases").toString())
            .redirectError(err.toFile())
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    List<String> stderr = Files.readAllLines(err);
    assertThat(out).as("stderr: %s", stderr).isEqualTo("leased true\n");
    assertThat(stderr.stream().filter(l -> l.contains("docs/node-ids.md#containers")))
        .singleElement()
        .asString()
        .startsWith("WARNING: in a container (/.dockerenv exists) with its own lease directory")
        .hasSizeLessThanOrEqualTo("WARNING: ".length() + 200);
  }

  private static String location(Class<?> c) {
    try {
      return Paths.get(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (URISyntaxException e) {
      throw new AssertionError(e);
    }
  }
}
