package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.snowid.testkit.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On real processes with the real host: {@link SnowId#next()} with its default node source (the
 * lease directory of {@code java.io.tmpdir}, here a folder of the test) in a process without
 * network ({@code unshare -n}), in a container, and in made-up Kubernetes pods (the environment
 * variables Kubernetes sets). The branches themselves are tested on a made-up host in snowid-core
 * (LocalLeasePlanTest, NodeIdChainTest); these show that the real host is read.
 */
@Tag("integration")
class NodeEnvironmentProcessTest {
  @TempDir Path tmp;

  /** What a child printed on stdout and stderr, and its exit code. */
  private record Run(int exit, String out, String err) {}

  private Run run(List<String> prefix, Map<String, String> env, String... jvmOptions)
      throws IOException, InterruptedException {
    List<String> options = new ArrayList<>(List.of(jvmOptions));
    options.add("-Djava.io.tmpdir=" + tmp);
    ProcessBuilder pb = ChildJvm.of(NodeEnvironmentMain.class, options);
    pb.command().addAll(0, prefix);
    pb.environment().keySet().removeIf(k -> k.startsWith("SNOWID_") || k.startsWith("KUBERNETES"));
    pb.environment().putAll(env);
    Path out = tmp.resolve("out-" + System.nanoTime());
    Path err = tmp.resolve("err-" + System.nanoTime());
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process p = pb.start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("child finished").isTrue();
    return new Run(
        p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8).trim(),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  private static boolean inDocker() {
    return Files.exists(Paths.get("/.dockerenv"));
  }

  /** Without an IPv4 address (unshare -n) every node field is leased, none left without a value. */
  @Test
  void snowIdNext_processWithoutNetwork_leasesEveryNodeFieldFromTheLeaseDirectory()
      throws Exception {
    Run r = run(List.of("unshare", "-n"), Map.of());

    assertThat(r.exit()).as(r.out() + r.err()).isZero();
    assertThat(r.out()).matches("ok [0-9]+ \\{datacenter=0, worker=0\\}");
    if (inDocker()) { // the default directory, in a container: no other container shares it
      assertThat(r.err()).contains("nothing tells it apart (no IPv4 address)");
    }
  }

  /** A container with the default lease directory warns in one short line with the doc link. */
  @Test
  void snowIdNext_containerWithTheDefaultDirectory_warnsInOneShortLine() throws Exception {
    assumeThat(inDocker()).as("runs in a Docker container (/.dockerenv), as CI does").isTrue();
    Run r = run(List.of(), Map.of());

    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.err().lines().filter(l -> l.contains("docs/node-ids.md#containers")))
        .singleElement()
        .asString()
        .contains("in a container (/.dockerenv exists) with its own lease directory")
        .hasSizeLessThanOrEqualTo("WARNING: ".length() + 200);
  }

  /** With SNOWID_DATACENTER_ID set, the setting tells containers apart: no WARN. */
  @Test
  void snowIdNext_containerWithDatacenterSet_doesNotWarn() throws Exception {
    assumeThat(inDocker()).as("runs in a Docker container (/.dockerenv), as CI does").isTrue();
    Run r = run(List.of(), Map.of("SNOWID_DATACENTER_ID", "7"));

    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("datacenter=7");
    assertThat(r.err()).doesNotContain("WARNING");
  }

  /** web-37's ordinal fills every node field, not the 5-bit datacenter field alone (too small). */
  @Test
  void snowIdNext_statefulSetPod37_takesItsOrdinalInEveryNodeField() throws Exception {
    Run r = run(List.of(), Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1", "HOSTNAME", "web-37"));

    assertThat(r.exit()).as(r.out() + r.err()).isZero();
    assertThat(r.out()).endsWith("{datacenter=1, worker=5}");
  }

  /**
   * A Deployment's pod refuses to start rather than run each pod with worker 0 and an
   * address-chosen datacenter.
   */
  @Test
  void snowIdNext_deploymentPod_refusesNamingTheSettingsThatMakeItSafe() throws Exception {
    Run r =
        run(
            List.of(),
            Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1", "HOSTNAME", "api-7c9f8d6b5-xk2lp"));

    assertThat(r.exit()).isEqualTo(3);
    assertThat(r.out())
        .startsWith("refused UnsafeEnvironmentException: no safe node id in a Kubernetes pod")
        .contains("snowid.node / SNOWID_NODE = redis://")
        .contains("run it as a StatefulSet")
        .contains("SNOWID_DATACENTER_ID, SNOWID_WORKER_ID")
        .doesNotContain("Field[");
    assertThat(tmp.resolve("snowid-leases")).doesNotExist();
  }

  /** A generated suffix of five digits is not taken for an ordinal (here it would fit). */
  @Test
  void snowIdNext_deploymentPodWithAnAllDigitSuffix_isNotTakenForAStatefulSetPod()
      throws Exception {
    Run r =
        run(
            List.of(),
            Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1", "HOSTNAME", "api-5d8f7c9b4-24567"),
            "-Dsnowid.layout=sonyflake");

    assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(3);
    assertThat(r.out()).contains("ends in five characters that Kubernetes may have generated");
  }
}
