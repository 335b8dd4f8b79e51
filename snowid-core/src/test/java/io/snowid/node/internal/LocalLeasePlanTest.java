package io.snowid.node.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;

import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import io.snowid.node.FakeHost;
import io.snowid.node.NodeIdSource;
import io.snowid.node.UnsafeEnvironmentException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a one-host lease (file:) does in each environment, decided on a made-up host. Each branch of
 * the table "Node ids by environment" of docs/node-ids.md is one test here.
 */
class LocalLeasePlanTest {
  private static final String DIR = "file:/tmp/snowid-leases";
  private final Layout twitter = Layout.twitter();
  private final List<Layout.Field> both = twitter.nodeFields();
  private final Layout.Field worker = twitter.field("worker").orElseThrow();
  private final Layout.Field datacenter = twitter.field("datacenter").orElseThrow();

  private LocalLeasePlan plan(FakeHost host, List<Layout.Field> unset, boolean directoryGiven) {
    return LocalLeasePlan.plan(twitter, unset, DIR, directoryGiven, host, List.of());
  }

  // A laptop or a server: one host, several processes.

  @Test
  void plan_hostWithIpv4_leasesTheWorkerAndTakesTheDatacenterFromTheAddress() {
    {
      LocalLeasePlan p = plan(FakeHost.withAddress("10.0.0.66"), both, false);

      assertThat(p.leased()).containsExactly(worker);
      assertThat(p.values()).containsExactly(Map.entry("datacenter", 2L)); // 66 & 31
      assertThat(p.scanned()).isEmpty();
      assertThat(p.warning().stream().toList())
          .singleElement(STRING)
          .isEqualTo(
              "node datacenter=2, the low 5 bits of this host's IPv4 address 10.0.0.66 (worker"
                  + " leased from file:/tmp/snowid-leases, so processes on this host never share"
                  + " one): two hosts whose addresses share those bits issue duplicate IDs. On more"
                  + " than one host, set snowid.datacenter-id / SNOWID_DATACENTER_ID to a different"
                  + " value on each, or lease every node field from a network coordinator:"
                  + " snowid.node / SNOWID_NODE = redis://… (or jdbc:postgresql://…)");
    }
  }

  // No network.

  @Test
  void plan_noIpv4_leasesEveryFieldAndSaysWhy() {
    {
      LocalLeasePlan p = plan(new FakeHost(), both, false);

      assertThat(p.leased()).containsExactly(worker);
      assertThat(p.scanned()).containsExactly(datacenter);
      assertThat(p.values()).isEmpty();
      assertThat(p.warning().stream().toList()).isEmpty();
    }
  }

  @Test
  void plan_onlyLoopbackAndLinkLocalIpv4_countsAsNoIpv4() {
    LocalLeasePlan p = plan(FakeHost.withAddress("127.0.0.1", "169.254.3.4"), both, false);
    assertThat(p.scanned()).containsExactly(datacenter);
  }

  @Test
  void plan_ipv6Only_leasesEveryFieldAndWarnsAboutSeveralHosts() {
    {
      LocalLeasePlan p = plan(FakeHost.withAddress("2001:db8::7", "fe80::1"), both, false);

      assertThat(p.scanned()).containsExactly(datacenter);
      assertThat(p.warning().stream().toList())
          .singleElement(STRING)
          .startsWith("this host has no IPv4 address, only IPv6: every node field (datacenter,")
          .contains("set snowid.datacenter-id / SNOWID_DATACENTER_ID to a different value on each")
          .contains("redis://");
    }
  }

  // Containers.

  @Test
  void plan_containerWithIpv4AndTheDefaultDirectory_warnsInOneShortLineWithTheDocLink() {
    {
      LocalLeasePlan p = plan(FakeHost.withAddress("172.17.0.9").docker(), both, false);

      assertThat(p.values()).containsExactly(Map.entry("datacenter", 9L));
      assertThat(p.warning().stream().toList())
          .singleElement(STRING)
          .isEqualTo(
              "in a container (/.dockerenv exists) with its own lease directory, only"
                  + " datacenter=9 from IPv4 172.17.0.9 tells it apart: duplicate IDs possible;"
                  + " see docs/node-ids.md#containers")
          .hasSizeLessThanOrEqualTo(200);
    }
  }

  @Test
  void plan_containerFoundThroughItsCgroup_warnsNamingIt() {
    FakeHost host = FakeHost.withAddress("10.8.0.3").file("/proc/1/cgroup", "0::/docker/4f1c\n");
    {
      LocalLeasePlan p = plan(host, both, false);
      assertThat(p.warning().stream().toList())
          .singleElement(STRING)
          .startsWith("in a container (/proc/1/cgroup names docker) with its own lease directory")
          .hasSizeLessThanOrEqualTo(200);
    }
  }

  @Test
  void plan_containerWithoutNetwork_warnsThatNothingTellsItApart() {
    {
      LocalLeasePlan p = plan(new FakeHost().docker(), both, false);

      assertThat(p.scanned()).containsExactly(datacenter);
      assertThat(p.warning().stream().toList())
          .singleElement(STRING)
          .isEqualTo(
              "in a container (/.dockerenv exists) with its own lease directory, nothing tells it"
                  + " apart (no IPv4 address): duplicate IDs possible; see"
                  + " docs/node-ids.md#containers");
    }
  }

  /**
   * With its datacenter set, what tells containers apart is the operator's setting, as with static
   * ids: no WARN (an INFO says that the setting must differ between containers).
   */
  @Test
  void plan_containerWithDatacenterSetAndTheDefaultDirectory_doesNotWarn() {
    {
      LocalLeasePlan p = plan(FakeHost.withAddress("172.17.0.9").docker(), List.of(worker), false);

      assertThat(p.leased()).containsExactly(worker);
      assertThat(p.warning()).isEmpty();
    }
  }

  /** A layout whose only node field is leased: nothing can tell containers apart. */
  @Test
  void plan_containerWithASingleNodeField_warnsThatNothingTellsItApart() {
    Layout westid = Layout.preset("westid");
    LocalLeasePlan p =
        LocalLeasePlan.plan(
            westid,
            westid.nodeFields(),
            DIR,
            false,
            FakeHost.withAddress("172.17.0.9").docker(),
            List.of());
    assertThat(p.warning().stream().toList())
        .singleElement(STRING)
        .contains("nothing tells it apart from other containers")
        .endsWith("see docs/node-ids.md#containers");
  }

  /** The longest: several fields from the address, the longest evidence and address. */
  @Test
  void plan_containerWarning_isAtMost200CharactersWhateverTheLayoutAndAddress() {
    Layout wide =
        Layout.parse("time=41,datacenter=3,process=3,shard=2,worker=2,sequence=12,epoch=0");
    FakeHost host =
        FakeHost.withAddress("255.255.255.254").file("/proc/1/cgroup", "0::/kubepods-docker\n");
    LocalLeasePlan p = LocalLeasePlan.plan(wide, wide.nodeFields(), DIR, false, host, List.of());
    assertThat(p.warning().stream().toList())
        .singleElement(STRING)
        .hasSizeLessThanOrEqualTo(200)
        .contains("255.255.255.254")
        .endsWith("see docs/node-ids.md#containers");
  }

  @Test
  void plan_containerWithAGivenDirectory_warnsOnlyAsAHostDoes() {
    {
      LocalLeasePlan p = plan(FakeHost.withAddress("172.17.0.9").docker(), both, true);
      assertThat(p.warning().stream().toList())
          .singleElement(STRING)
          .startsWith("node datacenter=9, the low 5 bits of this host's IPv4 address")
          .doesNotContain("container");
    }
  }

  // Kubernetes.

  @Test
  void plan_statefulSetPod_putsTheOrdinalInEveryFieldLeftAndLeasesNone() {
    LocalLeasePlan p = plan(FakeHost.withAddress("10.244.1.7").pod("web-37"), both, false);

    assertThat(p.values()).containsExactly(Map.entry("datacenter", 1L), Map.entry("worker", 5L));
    assertThat(p.leased()).isEmpty();
    assertThat(p.scanned()).isEmpty();
  }

  @Test
  void plan_statefulSetPodWithDatacenterSet_putsTheOrdinalInTheWorker() {
    LocalLeasePlan p =
        plan(FakeHost.withAddress("10.244.1.7").pod("web-7"), List.of(worker), false);
    assertThat(p.values()).containsExactly(Map.entry("worker", 7L));
  }

  @Test
  void plan_statefulSetLargerThanTheLayout_namesReplicasAndLimit() {
    FakeHost host = FakeHost.withAddress("10.244.1.7").pod("web-1024");
    assertThatThrownBy(() -> plan(host, both, false))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("allowed: 0..1023: StatefulSet web has at least 1025 replicas")
        .hasMessageContaining("(datacenter, worker, 10 bits) tell at most 1024 apart")
        .hasMessageNotContaining("Field[");
  }

  @Test
  void plan_deploymentPod_refusesNamingTheSettingsThatMakeItSafe() {
    FakeHost host = FakeHost.withAddress("10.244.1.7").pod("api-7c9f8d6b5-xk2lp");
    assertThatThrownBy(() -> plan(host, both, false))
        .isInstanceOf(UnsafeEnvironmentException.class)
        .hasMessage(
            "no safe node id in a Kubernetes pod (KUBERNETES_SERVICE_HOST is set): the node"
                + " field(s) datacenter, worker have no value that differs between pods: the pod"
                + " is not a StatefulSet's (its name api-7c9f8d6b5-xk2lp is not"
                + " <statefulset>-<ordinal>), and the lease directory file:/tmp/snowid-leases is"
                + " the pod's own, so every pod would lease the same worker; lease node ids across"
                + " pods with snowid.node / SNOWID_NODE = redis://… (or jdbc:postgresql://…), run"
                + " it as a StatefulSet, or give each pod its own snowid.datacenter-id and"
                + " snowid.worker-id (SNOWID_DATACENTER_ID, SNOWID_WORKER_ID)");
  }

  @Test
  void plan_deploymentPodWithDatacenterSet_stillRefusesForTheWorker() {
    FakeHost host = FakeHost.withAddress("10.244.1.7").pod("api-7c9f8d6b5-xk2lp");
    assertThatThrownBy(() -> plan(host, List.of(worker), false))
        .isInstanceOf(UnsafeEnvironmentException.class)
        .hasMessageContaining("every pod would lease the same worker")
        .hasMessageContaining("snowid.worker-id / SNOWID_WORKER_ID");
  }

  /** A given directory may well be the pod's own: a WARN. */
  @Test
  void plan_deploymentPodWithDatacenterSetAndAGivenDirectory_leasesTheWorkerFromItWithWarn() {
    FakeHost host = FakeHost.withAddress("10.244.1.7").pod("api-7c9f8d6b5-xk2lp");
    LocalLeasePlan p = plan(host, List.of(worker), true);
    assertThat(p.leased()).containsExactly(worker);
    assertThat(p.values()).isEmpty();
    assertThat(p.warning().stream().toList())
        .singleElement(STRING)
        .startsWith(
            "running in a Kubernetes pod that is not a StatefulSet's, with the lease directory"
                + " file:/tmp/snowid-leases: worker is leased from it, which tells pods apart only"
                + " if every pod");
  }

  /** fields= does not skip the checks of the environment. */
  @Test
  void chosen_deploymentPodWithThePodsOwnDirectory_refuses() {
    FakeHost host = FakeHost.withAddress("10.244.1.7").pod("api-7c9f8d6b5-xk2lp");
    assertThatThrownBy(() -> LocalLeasePlan.chosen(twitter, both, DIR, false, host))
        .isInstanceOf(UnsafeEnvironmentException.class)
        .hasMessageContaining(
            "the option fields=datacenter, worker leases them from the lease directory"
                + " file:/tmp/snowid-leases, which is the pod's own, so every pod would lease the"
                + " same values");
  }

  @Test
  void chosen_containerWithTheDefaultDirectory_warns() {
    LocalLeasePlan p =
        LocalLeasePlan.chosen(twitter, both, DIR, false, FakeHost.withAddress("10.0.0.3").docker());
    assertThat(p.leased()).containsExactly(datacenter, worker);
    assertThat(p.warning().stream().toList())
        .singleElement(STRING)
        .isEqualTo(
            "in a container (/.dockerenv exists) with its own lease directory, nothing tells it"
                + " apart from other containers: duplicate IDs possible; see"
                + " docs/node-ids.md#containers");
  }

  @Test
  void chosen_hostWithTheDefaultDirectory_leasesThemSilently() {
    LocalLeasePlan p =
        LocalLeasePlan.chosen(twitter, both, DIR, false, FakeHost.withAddress("10.0.0.3"));
    assertThat(p.leased()).containsExactly(datacenter, worker);
    assertThat(p.warning()).isEmpty();
  }

  /** hostNetwork pods are named after their node, so the ordinal needs POD_NAME. */
  @Test
  void plan_statefulSetOrdinalFromHostnameWithoutPodName_warnsToSetPodName() {
    LocalLeasePlan p = plan(FakeHost.withAddress("10.244.1.7").pod("worker-2"), both, false);
    assertThat(p.values()).containsEntry("worker", 2L);
    assertThat(p.warning().stream().toList())
        .singleElement(STRING)
        .startsWith(
            "the StatefulSet ordinal 2 comes from the host name worker-2 because POD_NAME is not"
                + " set")
        .contains("Set POD_NAME from the downward API");
  }

  @Test
  void plan_deploymentPodWithAGivenDirectoryButNoDatacenter_refusesForTheAddress() {
    FakeHost host = FakeHost.withAddress("10.244.1.7").pod("api-7c9f8d6b5-xk2lp");
    assertThatThrownBy(() -> plan(host, both, true))
        .isInstanceOf(UnsafeEnvironmentException.class)
        .hasMessageContaining(
            "the field(s) datacenter would come from the pod's IPv4 address, which other pods"
                + " share by chance");
  }

  @Test
  void plan_podNameFromTheDownwardApi_isRead() {
    FakeHost host = FakeHost.withAddress("10.244.1.7").pod("web-2").set("POD_NAME", "web-2");
    LocalLeasePlan p = plan(host, both, false);
    assertThat(p.values()).containsEntry("worker", 2L);
    assertThat(p.warning()).isEmpty();
  }

  // A NodeIdSource of the application comes before the ordinal and the address.

  @Test
  void plan_serviceLoaderSource_givesTheDatacenter() {
    NodeIdSource rack =
        new NodeIdSource() {
          @Override
          public String name() {
            return "rack";
          }

          @Override
          public Map<String, Long> resolve(Layout layout, List<Layout.Field> wanted) {
            return wanted.contains(datacenter) ? Map.of("datacenter", 17L) : Map.of();
          }
        };
    {
      LocalLeasePlan p =
          LocalLeasePlan.plan(
              twitter, both, DIR, false, FakeHost.withAddress("10.0.0.1"), List.of(rack));
      assertThat(p.values()).containsExactly(Map.entry("datacenter", 17L));
      assertThat(p.leased()).containsExactly(worker);
      assertThat(p.warning().stream().toList()).isEmpty();
    }
  }
}
