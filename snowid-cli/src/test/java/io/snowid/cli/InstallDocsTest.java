package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A newcomer finds how to install snowid (the README's "Install": the BOM, the coordinates of every
 * published module, {@code ./mvnw install}) and under which license, and the build says so too.
 */
class InstallDocsTest {
  private static final Path REPO = Path.of("").toAbsolutePath().getParent();

  @Test
  void license_isApache2AtTheRootAndInThePoms() throws IOException {
    assertThat(Files.readString(REPO.resolve("LICENSE")))
        .contains("Apache License")
        .contains("Version 2.0, January 2004");
    for (String pom : List.of("pom.xml", "snowid-bom/pom.xml")) {
      assertThat(Files.readString(REPO.resolve(pom))).contains("<name>Apache-2.0</name>");
    }
  }

  @Test
  void readme_install_namesTheBomEveryPublishedModuleAndTheInstallStep() throws IOException {
    String readme = Files.readString(REPO.resolve("README.md"));
    int start = readme.indexOf("\n## Install\n");
    assertThat(start).as("an Install section").isPositive();
    String install = readme.substring(start, readme.indexOf("\n## ", start + 1));
    String bom = Files.readString(REPO.resolve("snowid-bom/pom.xml"));
    List<String> published =
        Pattern.compile("<artifactId>(snowid-[a-z0-9-]+)</artifactId>")
            .matcher(bom)
            .results()
            .map(m -> m.group(1))
            .filter(a -> !a.equals("snowid-bom"))
            .toList();

    assertThat(install)
        .contains("./mvnw -B install")
        .contains("<artifactId>snowid-bom</artifactId>")
        .contains("<scope>import</scope>")
        .contains("[LICENSE](LICENSE)")
        .contains("docs/snowid.service");
    assertThat(published).isNotEmpty().allMatch(a -> install.contains("`" + a + "`"));
  }

  @Test
  void cliAndHttpDocs_security_saysHowTheLogShowsAuthentication() throws IOException {
    assertThat(Files.readString(REPO.resolve("docs/cli-and-http.md")).replaceAll("\\s+", " "))
        .contains("`auth: bearer token`")
        .contains("`auth: none`");
  }
}
