package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The docs' systemd advice (docs/node-ids.md, docs/operations.md) ships as a unit, {@code
 * docs/snowid.service}, that systemd accepts as it is and that configures only what {@code snowid
 * serve} reads. {@code systemd-analyze verify} runs where systemd is installed; elsewhere that one
 * test is skipped.
 */
class SystemdUnitTest {
  private static final Path UNIT =
      Path.of("").toAbsolutePath().getParent().resolve("docs/snowid.service");

  @Tag("integration")
  @Test
  void unit_passesSystemdAnalyzeVerifyWithoutAWarning() throws Exception {
    Process p;
    try {
      p =
          new ProcessBuilder("systemd-analyze", "verify", UNIT.toString())
              .redirectErrorStream(true)
              .start();
    } catch (IOException e) {
      assumeThat(e).as("systemd-analyze is not installed: " + e.getMessage()).isNull();
      return;
    }
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();

    assertThat(p.exitValue()).as(output).isZero();
    assertThat(output).isEmpty();
  }

  @Test
  void unit_setsOnlyVariablesThatServeReads() throws IOException {
    String unit = Files.readString(UNIT);
    String help = Cli.run("serve", "--help").out();
    Matcher m = Pattern.compile("(?m)^Environment=(SNOWID_[A-Z_]+)=").matcher(unit);
    List<String> names = m.results().map(r -> r.group(1)).toList();

    assertThat(names).isNotEmpty().allMatch(help::contains);
    assertThat(unit).contains("ExecStart=").containsPattern("(?m)^ExecStart=.* serve$");
  }

  /** PrivateTmp= gives the service a /tmp of its own: its lease directory must be elsewhere. */
  @Test
  void unit_withPrivateTmp_leasesFromADirectoryOutsideTmp() throws IOException {
    String unit = Files.readString(UNIT);

    assertThat(unit).containsPattern("(?m)^PrivateTmp=yes$");
    assertThat(unit)
        .containsPattern("(?m)^Environment=SNOWID_NODE=file:/var/lib/snowid/")
        .doesNotContainPattern("(?m)^Environment=SNOWID_NODE=file:/tmp");
    assertThat(unit).containsPattern("(?m)^StateDirectory=snowid$");
  }
}
