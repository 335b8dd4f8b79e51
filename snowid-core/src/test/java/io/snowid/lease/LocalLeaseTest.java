package io.snowid.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.Layout;
import io.snowid.TimeSource;
import io.snowid.node.HostEnvironment;
import io.snowid.node.NodeLease;
import io.snowid.node.UnsafeEnvironmentException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a file: lease does on a made-up host, with real lease files: without IPv4 every field is
 * leased, never shared with a process that takes the datacenter from its address; a StatefulSet
 * ordinal fills the fields, one process per pod and ordinal.
 */
class LocalLeaseTest {
  private static final String NOT_THE_DEFAULT = "file:/nowhere/default";

  @TempDir Path dir;
  private final List<NodeLease> leases = new ArrayList<>();

  @AfterEach
  void close() {
    leases.forEach(NodeLease::close);
  }

  /** A host with these environment variables and interface addresses. */
  private static HostEnvironment host(Map<String, String> variables, String... addresses) {
    List<InetAddress> list = new ArrayList<>();
    for (String a : addresses) {
      try {
        list.add(InetAddress.getByName(a));
      } catch (UnknownHostException e) {
        throw new AssertionError(e);
      }
    }
    return new HostEnvironment() {
      @Override
      public String variable(String name) {
        return variables.get(name);
      }

      @Override
      public Optional<String> readFile(String path) {
        return Optional.empty();
      }

      @Override
      public List<InetAddress> interfaceAddresses() {
        return list;
      }

      @Override
      public String hostName() {
        return "";
      }
    };
  }

  private Map<String, Long> lease(Layout layout, HostEnvironment host) {
    NodeLease l =
        LeaseCoordinators.lease(
            "file:" + dir + "?instance=i" + leases.size(),
            layout,
            Map.of(),
            TimeSource.monotonic(),
            host,
            NOT_THE_DEFAULT);
    leases.add(l);
    return l.status().values();
  }

  @Test
  void lease_noIpv4_leasesEveryFieldFromTheDirectory() {
    HostEnvironment offline = host(Map.of());
    assertThat(lease(Layout.twitter(), offline))
        .containsExactly(Map.entry("datacenter", 0L), Map.entry("worker", 0L));
    assertThat(lease(Layout.twitter(), offline))
        .containsExactly(Map.entry("datacenter", 0L), Map.entry("worker", 1L));
  }

  /** Two kinds of process on one directory lease from the same namespaces: never the same id. */
  @Test
  void lease_noIpv4BesideAProcessWithIpv4_neverSharesItsNodeValues() {
    Map<String, Long> online = lease(Layout.twitter(), host(Map.of(), "10.0.0.64")); // dc 0
    Map<String, Long> offline = lease(Layout.twitter(), host(Map.of()));

    assertThat(online).containsExactly(Map.entry("datacenter", 0L), Map.entry("worker", 0L));
    assertThat(offline).containsExactly(Map.entry("datacenter", 0L), Map.entry("worker", 1L));
  }

  @Test
  void lease_noIpv4AndEveryWorkerOfADatacenterHeld_movesToTheNextDatacenter() {
    Layout small = Layout.parse("time=41,datacenter=2,worker=1,sequence=12,epoch=0");
    HostEnvironment offline = host(Map.of());
    List<Map<String, Long>> got = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      got.add(lease(small, offline));
    }
    assertThat(got)
        .containsExactly(
            Map.of("datacenter", 0L, "worker", 0L),
            Map.of("datacenter", 0L, "worker", 1L),
            Map.of("datacenter", 1L, "worker", 0L),
            Map.of("datacenter", 1L, "worker", 1L),
            Map.of("datacenter", 2L, "worker", 0L),
            Map.of("datacenter", 2L, "worker", 1L),
            Map.of("datacenter", 3L, "worker", 0L),
            Map.of("datacenter", 3L, "worker", 1L));
    assertThatThrownBy(() -> lease(small, offline))
        .isInstanceOf(NodeIdsExhaustedException.class)
        .hasMessageContaining("all 8 node ids");
  }

  @Test
  void lease_statefulSetPod_takesItsOrdinalAndOneProcessHoldsIt() {
    Map<String, String> pod = new HashMap<>();
    pod.put("KUBERNETES_SERVICE_HOST", "10.96.0.1");
    pod.put("HOSTNAME", "web-37");
    HostEnvironment web37 = host(pod, "10.244.1.7");

    assertThat(lease(Layout.twitter(), web37))
        .containsExactly(Map.entry("datacenter", 1L), Map.entry("worker", 5L));
    assertThatThrownBy(() -> lease(Layout.twitter(), web37))
        .isInstanceOf(NodeIdsExhaustedException.class)
        .hasMessageContaining("all 1 node ids");
  }

  @Test
  void lease_deploymentPodWithTheDefaultDirectory_refusesBeforeTouchingIt() {
    Map<String, String> pod = Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1", "HOSTNAME", "api-x");
    assertThatThrownBy(
            () ->
                LeaseCoordinators.lease(
                    "file:" + dir.resolve("leases"),
                    Layout.twitter(),
                    Map.of(),
                    TimeSource.monotonic(),
                    host(pod, "10.244.1.7"),
                    "file:" + dir.resolve("leases")))
        .isInstanceOf(UnsafeEnvironmentException.class);
    assertThat(dir.resolve("leases")).doesNotExist();
  }

  /**
   * The default directory written another way, with a trailing slash or with fields=, is still the
   * default, not a directory the operator gave.
   */
  @Test
  void lease_deploymentPodWithTheDefaultDirectoryWrittenAnotherWayOrFields_refuses() {
    Map<String, String> pod =
        Map.of(
            "KUBERNETES_SERVICE_HOST",
            "10.96.0.1",
            "HOSTNAME",
            "api-6d4cf56db6-x7k2a",
            "SNOWID_DATACENTER_ID",
            "3");
    String defaultUri = "file:" + dir.resolve("leases");
    for (String uri :
        List.of(
            "file:" + dir.resolve("leases") + "/",
            "file://" + dir.resolve("leases"),
            "file:" + dir.resolve("leases") + "/.?fields=datacenter,worker")) {
      assertThatThrownBy(
              () ->
                  LeaseCoordinators.lease(
                      uri,
                      Layout.twitter(),
                      Map.of(),
                      TimeSource.monotonic(),
                      host(pod, "10.244.1.7"),
                      defaultUri))
          .as(uri)
          .isInstanceOf(UnsafeEnvironmentException.class);
    }
    assertThat(dir.resolve("leases")).doesNotExist();
  }

  /** fields=worker without a datacenter value is an invalid setting, not a NullPointer. */
  @Test
  void lease_fieldsLeavingANodeFieldWithoutValue_invalidSettingNamingIt() {
    assertThatThrownBy(
            () ->
                LeaseCoordinators.lease(
                    "file:" + dir.resolve("leases") + "?fields=worker",
                    Layout.twitter(),
                    Map.of(),
                    TimeSource.monotonic(),
                    host(Map.of(), "10.0.0.3"),
                    NOT_THE_DEFAULT))
        .isInstanceOf(io.snowid.InvalidSettingException.class)
        .hasMessageContaining(
            "datacenter has none (add it to fields=, or set snowid.datacenter-id)");
  }
}
