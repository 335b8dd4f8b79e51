package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.testkit.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SnowId} after a failed first use: the next call builds the generator again, the caller
 * sees the snowid exception that build threw (with its cause), never {@link
 * ExceptionInInitializerError} or {@link NoClassDefFoundError}, and concurrent callers share one
 * generator. {@code SnowId} is process-wide, so each scenario runs {@link SnowIdRetryMain} in a
 * child JVM.
 */
@Tag("integration")
class SnowIdRetryTest {
  @TempDir Path dir;

  private List<String> run(List<String> properties, String... args) throws Exception {
    Path err = dir.resolve("stderr");
    Process p =
        ChildJvm.of(SnowIdRetryMain.class, properties, args)
            .redirectError(ProcessBuilder.Redirect.to(err.toFile()))
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("child JVM finished").isTrue();
    assertThat(p.exitValue()).as("exit value; stdout:\n%s\nstderr:\n%s", out, text(err)).isZero();
    return out.lines().toList();
  }

  private static String text(Path file) throws IOException {
    return Files.exists(file) ? Files.readString(file) : "";
  }

  private String leases() {
    return "-Dsnowid.node=file:" + dir.resolve("leases");
  }

  @Test
  void next_firstInitFailed_retriesAndSucceedsOnceFixed() throws Exception {
    List<String> out = run(List.of("-Dsnowid.layout=bogus", leases()), "layout");

    String invalid = "io.snowid.InvalidSettingException: layout = bogus is invalid";
    assertThat(out.get(0)).startsWith("next " + invalid);
    assertThat(out.get(1)).startsWith("again " + invalid);
    assertThat(out.get(2)).startsWith("decode " + invalid);
    assertThat(out.get(3)).startsWith("nextString " + invalid);
    assertThat(out.get(4)).isEqualTo("leaseThreads 0");
    assertThat(out.subList(5, out.size()))
        .containsExactly(
            "fixed " + Layout.preset("sonyflake").spec(),
            "sameGenerator true",
            "increasing true",
            "decodes true",
            "leaseThreads 1");
  }

  @Test
  void nextAndNextJs53_coordinatorUnreachable_throwOriginalWithCauseThenRecover() throws Exception {
    Path down = dir.resolve("coordinator.down");
    Files.createFile(down);
    List<String> out =
        run(
            List.of(
                "-Dsnowid.node=" + FlakyCoordinatorProvider.SCHEME + dir.resolve("coordinator")),
            "coordinator",
            down.toString());

    String unreachable = "io.snowid.SnowIdException: coordinator flaky:";
    String cause = "| cause java.net.ConnectException: Connection refused";
    assertThat(out).hasSize(7);
    assertThat(out.get(0)).startsWith("next " + unreachable).endsWith(cause);
    assertThat(out.get(1)).startsWith("nextJs53 " + unreachable).endsWith(cause);
    assertThat(out.get(2)).startsWith("again " + unreachable).endsWith(cause);
    assertThat(out.get(3)).isEqualTo("leaseThreads 0");
    assertThat(out.get(4)).startsWith("next ok ");
    assertThat(out.get(5)).isEqualTo("nextJs53 ok true");
    assertThat(out.get(6)).isEqualTo("leaseThreads 2");
  }

  @Test
  void generator_concurrentFirstCallsAfterFailure_buildsOneGenerator() throws Exception {
    List<String> out = run(List.of("-Dsnowid.layout=bogus", leases()), "concurrent");

    assertThat(out)
        .containsExactly(
            "failures [io.snowid.InvalidSettingException: layout = bogus is invalid; allowed: a"
                + " spec string or one of "
                + String.join(", ", Layout.presetNames())
                + "]",
            "generators 1",
            "js53Distinct 8",
            "sameAsLater true",
            "leaseThreads 2");
  }
}
