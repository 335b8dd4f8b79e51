package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.snowid.testkit.IssuerJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Configurations of the {@code file:} backend that look different but cover the same node values,
 * one namespace and layout, on real processes that each issue millions of IDs at once: they must
 * get different node values (or be refused), never issue one ID twice. Through the public API only,
 * so with the host's own claims ({@code /tmp/snowid-claims}): which values each gets depends on
 * what else runs on the host, only that they differ is asserted.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
@Tag("integration")
class MixedConfigurationsProcessTest {
  /** IDs per process: 5 million per pair. */
  private static final long COUNT = 2_500_000;

  @TempDir Path dir;
  private final List<IssuerJvm> started = new ArrayList<>();

  @AfterEach
  void killLeftovers() {
    started.forEach(IssuerJvm::close);
  }

  private String uri(String directory) {
    return "file:" + dir.resolve(directory) + "?namespace=orders";
  }

  private IssuerJvm start(IssuerJvm.Launch launch, String... sources) throws IOException {
    IssuerJvm p = launch.start(sources);
    started.add(p);
    return p;
  }

  /**
   * A datacenter from {@code SNOWID_DATACENTER_ID} beside a process without an IPv4 address ({@code
   * unshare -n}), which leases both fields.
   */
  @Test
  void datacenterFromTheEnvironment_besideAProcessThatLeasesBothFields_apart() throws Exception {
    assumeThat(withoutNetwork()).as("unshare -n works here (root)").isTrue();
    IssuerJvm a =
        start(IssuerJvm.in(dir, "a").count(COUNT).env("SNOWID_DATACENTER_ID", "0"), uri("leases"));
    IssuerJvm b = start(IssuerJvm.in(dir, "b").count(COUNT).under("unshare", "-n"), uri("leases"));
    a.awaitReady();
    b.awaitReady();

    System.out.println(
        "file: datacenter fixed / none: " + IssuerJvm.issueTogether(a, b).assertApart());
  }

  /**
   * A default process without an IPv4 address ({@code unshare -n}: it leases both fields, the
   * datacenter first) beside one that leases them in the other order.
   */
  @Test
  void defaultWithoutIpv4BesideFieldsInAnotherOrder_apart() throws Exception {
    assumeThat(withoutNetwork()).as("unshare -n works here (root)").isTrue();
    IssuerJvm a = start(IssuerJvm.in(dir, "a").count(COUNT).under("unshare", "-n"), uri("leases"));
    IssuerJvm b =
        start(IssuerJvm.in(dir, "b").count(COUNT), uri("leases") + "&fields=worker,datacenter");
    a.awaitReady();
    b.awaitReady();

    System.out.println(
        "file: default without IPv4 / fields=worker,datacenter: "
            + IssuerJvm.issueTogether(a, b).assertApart());
  }

  /**
   * A default process (its datacenter from the host's IPv4 address) beside one that leases both
   * fields in the other order.
   */
  @Test
  void defaultWithIpv4BesideFieldsInAnotherOrder_apart() throws Exception {
    IssuerJvm a = start(IssuerJvm.in(dir, "a").count(COUNT), uri("leases"));
    IssuerJvm b =
        start(IssuerJvm.in(dir, "b").count(COUNT), uri("leases") + "&fields=worker,datacenter");
    a.awaitReady();
    b.awaitReady();

    System.out.println(
        "file: default / fields=worker,datacenter: " + IssuerJvm.issueTogether(a, b).assertApart());
  }

  /**
   * A field named twice (the datacenter from the environment, so that nothing else is missing) is
   * refused before anything is written to the lease directory.
   */
  @Test
  void fieldNamedTwice_refusedNamingFields_nothingLeased() throws Exception {
    IssuerJvm a = start(IssuerJvm.in(dir, "a").count(1_000), uri("leases"));
    a.awaitReady();
    List<Path> before = leaseFiles(dir.resolve("leases"));

    IssuerJvm b =
        start(
            IssuerJvm.in(dir, "b").env("SNOWID_DATACENTER_ID", "0"),
            uri("leases") + "&fields=worker,worker");
    String refusal = b.awaitRefused();
    System.out.println("file: fields=worker,worker: " + refusal);

    assertThat(refusal)
        .startsWith("InvalidSettingException: ")
        .contains("fields", "worker,worker", "twice");
    assertThat(leaseFiles(dir.resolve("leases"))).as("lease files").isEqualTo(before).hasSize(1);
    a.stop();
  }

  /**
   * {@code snowid serve} on one directory and {@code snowid generate --node file:/other}: {@code
   * SnowId.next()} in one process, a generator on another directory in another.
   */
  @Test
  void twoDirectories_twoProcesses_apart() throws Exception {
    IssuerJvm a =
        start(
            IssuerJvm.in(dir, "a").count(COUNT).jvmOption("-Dsnowid.node=" + uri("default")),
            "snowid");
    IssuerJvm b = start(IssuerJvm.in(dir, "b").count(COUNT), uri("other"));
    a.awaitReady();
    b.awaitReady();

    System.out.println("file: two directories: " + IssuerJvm.issueTogether(a, b).assertApart());
  }

  /**
   * What the README's quick start warns of: {@code SnowId.next()} and a generator on another
   * directory in one program. Refused, naming both sources, or different values.
   */
  @Test
  void twoDirectories_oneJvm_refusedOrApart() throws Exception {
    IssuerJvm p =
        start(
            IssuerJvm.in(dir, "p").count(COUNT).jvmOption("-Dsnowid.node=" + uri("default")),
            "snowid",
            uri("other"));
    IssuerJvm.Readiness r = p.awaitReadyOrRefused();
    if (r.refusal() != null) {
      assertThat(r.refusal())
          .startsWith("NodeValuesInUseException: ")
          .contains(dir.resolve("default").toString(), dir.resolve("other").toString());
      return;
    }
    System.out.println(
        "file: two directories, one JVM: " + IssuerJvm.issueTogether(p).assertApart());
  }

  /**
   * The same program without the host's claims ({@code snowid.host-claim=off}): both directories
   * hand out the same values, and the JVM's own claim refuses the second generator, naming both.
   */
  @Test
  void twoDirectories_oneJvmWithoutHostClaims_secondRefusedNamingBoth() throws Exception {
    IssuerJvm p =
        start(
            IssuerJvm.in(dir, "p")
                .count(COUNT)
                .jvmOption("-Dsnowid.host-claim=off")
                .jvmOption("-Dsnowid.node=" + uri("default")),
            "snowid",
            uri("other"));

    String refusal = p.awaitRefused();
    System.out.println("file: two directories, one JVM, no host claims: " + refusal);
    assertThat(refusal)
        .startsWith("NodeValuesInUseException: ")
        .contains(dir.resolve("default").toString(), dir.resolve("other").toString());
  }

  /** Whether a process can be started without network ({@code unshare -n}). */
  private static boolean withoutNetwork() throws InterruptedException {
    try {
      Process p = new ProcessBuilder("unshare", "-n", "true").redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    }
  }

  private static List<Path> leaseFiles(Path root) throws IOException {
    try (Stream<Path> all = Files.walk(root)) {
      return all.filter(f -> f.getFileName().toString().endsWith(".lease")).sorted().toList();
    }
  }
}
