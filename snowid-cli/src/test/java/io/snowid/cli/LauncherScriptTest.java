package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first {@code ./snowid} builds for a minute or more, so it says more than "building snowid…":
 * what it builds, why, that it may download Maven and the dependencies, each module as Maven
 * reaches it, and how long it took. The script runs for real in a copy of the repository's layout
 * whose {@code ./mvnw} is a stand-in that prints what Maven prints, so nothing is downloaded or
 * compiled here.
 */
@Tag("integration")
class LauncherScriptTest {
  private static final Path REPO = Path.of("").toAbsolutePath().getParent();

  @TempDir Path root;

  private record Run(int exit, String stderr) {}

  private Run launch(String fakeMaven) throws Exception {
    Files.copy(REPO.resolve("snowid"), root.resolve("snowid"));
    Files.createDirectories(root.resolve(".mvn/wrapper"));
    Files.copy(
        REPO.resolve(".mvn/wrapper/maven-wrapper.properties"),
        root.resolve(".mvn/wrapper/maven-wrapper.properties"));
    Path mvnw = root.resolve("mvnw");
    Files.writeString(mvnw, "#!/usr/bin/env bash\n" + fakeMaven);
    Files.setPosixFilePermissions(mvnw, PosixFilePermissions.fromString("rwxr-xr-x"));
    ProcessBuilder pb =
        new ProcessBuilder("bash", root.resolve("snowid").toString(), "--version")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    pb.environment().put("MAVEN_USER_HOME", root.resolve("m2").toString()); // no Maven yet
    Process p = pb.start();
    String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Run(p.exitValue(), stderr);
  }

  @Test
  void firstRun_saysWhatItBuildsAndReportsEachModule() throws Exception {
    Run r =
        launch(
            """
            echo '[INFO] Scanning for projects...'
            echo '[INFO] Downloading from central: https://repo.maven.apache.org/maven2/x.pom'
            echo '[INFO] Downloading from central: https://repo.maven.apache.org/maven2/y.pom'
            echo '[INFO] Building snowid-core 0.1.0-SNAPSHOT                     [1/2]'
            echo '[INFO] Building jar: /somewhere/snowid-core-0.1.0-SNAPSHOT.jar'
            echo '[INFO] Building snowid-cli 0.1.0-SNAPSHOT                      [2/2]'
            mkdir -p snowid-cli/target && touch snowid-cli/target/snowid.jar
            """);

    assertThat(r.stderr().lines())
        .startsWith(
            "snowid: building snowid-cli/target/snowid.jar with ./mvnw (the first run); usually"
                + " about a minute.",
            "snowid:   downloading Maven (apache-maven-3.9.16) first, once",
            "snowid:   downloading dependencies from Maven Central (once)",
            "snowid:   building snowid-core [1/2]",
            "snowid:   building snowid-cli [2/2]")
        .anyMatch(l -> l.matches("snowid: built in [0-9]+ s; from now on ./snowid starts at once"));
  }

  @Test
  void failedBuild_showsMavensOutputAndExits1() throws Exception {
    Run r = launch("echo '[ERROR] COMPILATION ERROR : something'\nexit 1\n");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.stderr())
        .contains("[ERROR] COMPILATION ERROR : something")
        .contains("snowid: the build failed");
  }
}
