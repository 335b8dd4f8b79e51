package io.snowid.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import io.snowid.node.internal.Ipv4Source;
import io.snowid.node.internal.PropertySource;
import io.snowid.node.internal.StatefulSetSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class NodeIdChainTest {
  private final Layout twitter = Layout.twitter();
  private final FakeHost env = new FakeHost();

  @AfterEach
  void clearProperties() {
    System.clearProperty("snowid.worker-id");
    System.clearProperty("snowid.datacenter-id");
  }

  private final List<String> warnings = new ArrayList<>();

  private Ipv4Source ip(String address) {
    env.address(address);
    return new Ipv4Source(env, warnings::add);
  }

  private NodeIdChain chain(Ipv4Source ipv4) {
    return NodeIdChain.of(
        List.of(
            PropertySource.systemProperties(),
            PropertySource.environment(env),
            new StatefulSetSource(env),
            ipv4));
  }

  @Test
  void resolve_explicitBeatsEverything() {
    System.setProperty("snowid.worker-id", "9");
    Map<String, Long> v =
        chain(ip("10.0.0.1")).resolve(twitter, Map.of("worker", 3L, "datacenter", 4L));
    assertThat(v).containsEntry("worker", 3L).containsEntry("datacenter", 4L);
  }

  @Test
  void resolve_systemPropertyBeatsEnvironment_perField() {
    System.setProperty("snowid.worker-id", "9");
    env.set("SNOWID_WORKER_ID", "1");
    env.set("SNOWID_DATACENTER_ID", "2");
    Map<String, Long> v = chain(ip("10.0.0.1")).resolve(twitter, Map.of());
    assertThat(v).containsEntry("worker", 9L).containsEntry("datacenter", 2L);
  }

  @Test
  void resolve_statefulSetOrdinalInsideKubernetes_spreadsOverUnsetFields() {
    env.set("KUBERNETES_SERVICE_HOST", "10.96.0.1");
    env.set("HOSTNAME", "idgen-37");
    Map<String, Long> v = chain(ip("10.0.0.1")).resolve(twitter, Map.of());
    assertThat(v).containsEntry("datacenter", 1L).containsEntry("worker", 5L); // 37 = 1<<5 | 5
  }

  @Test
  void resolve_hostNameWithDigitsOutsideKubernetes_isNotAnOrdinal() {
    env.set("HOSTNAME", "ip-10-0-0-3");
    Map<String, Long> v = chain(ip("192.168.7.200")).resolve(twitter, Map.of());
    // 10 low bits of 192.168.7.200: 7 << 8 | 200 = 1992 & 1023 = 968 = 30 << 5 | 8
    assertThat(v).containsEntry("datacenter", 30L).containsEntry("worker", 8L);
  }

  @Test
  void resolve_ordinalTooLargeForFields_throwsNamingTheRange() {
    env.set("KUBERNETES_SERVICE_HOST", "10.96.0.1");
    env.set("HOSTNAME", "idgen-40");
    assertThatThrownBy(() -> chain(ip("10.0.0.1")).resolve(twitter, Map.of("datacenter", 0L)))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("0..31");
  }

  @Test
  void resolve_propertyOutOfRangeOrNotANumber_throwsNamingTheProperty() {
    System.setProperty("snowid.worker-id", "32");
    assertThatThrownBy(() -> chain(ip("10.0.0.1")).resolve(twitter, Map.of()))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("snowid.worker-id")
        .hasMessageContaining("0..31");
    System.clearProperty("snowid.worker-id");
    env.set("SNOWID_DATACENTER_ID", "two");
    assertThatThrownBy(() -> chain(ip("10.0.0.1")).resolve(twitter, Map.of()))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("SNOWID_DATACENTER_ID");
  }

  @Test
  void resolve_noSourceHasAValue_throwsListingWhatWasTried() {
    NodeIdChain none = chain(new Ipv4Source(env));
    assertThatThrownBy(() -> none.resolve(twitter, Map.of()))
        .isInstanceOf(NodeIdUnavailableException.class)
        .hasMessageContaining("snowid.worker-id")
        .hasMessageContaining("SNOWID_DATACENTER_ID")
        .hasMessageContaining("StatefulSet");
  }

  @Test
  void resolve_otherNodeFieldNames_useTheirOwnProperties() {
    env.set("SNOWID_MACHINE_ID", "65535");
    assertThat(chain(ip("10.0.0.1")).resolve(Layout.preset("sonyflake"), Map.of()))
        .containsExactly(Map.entry("machine", 65535L));
  }

  @Test
  void standard_includesServiceLoaderProvidersBetweenEnvironmentAndKubernetes() {
    List<NodeIdSource> sources = NodeIdChain.standard(env).sources();
    assertThat(sources.get(0).name()).isEqualTo("system property");
    assertThat(sources.get(1).name()).isEqualTo("environment");
    assertThat(sources.get(sources.size() - 2)).isInstanceOf(StatefulSetSource.class);
    assertThat(sources.get(sources.size() - 1)).isInstanceOf(Ipv4Source.class);
  }

  // Kubernetes.

  /** A Deployment's pod whose generated suffix is all digits is not read as ordinal 24567. */
  @Test
  void resolve_deploymentPodWithAllDigitSuffix_isNotAnOrdinalAndRefuses() {
    env.pod("api-5d8f7c9b4-24567");
    assertThatThrownBy(() -> chain(ip("10.1.2.3")).resolve(Layout.preset("sonyflake"), Map.of()))
        .isInstanceOf(UnsafeEnvironmentException.class)
        .hasMessageContaining("api-5d8f7c9b4-24567 ends in five characters")
        .hasMessageContaining("SNOWID_STATEFULSET=api-5d8f7c9b4")
        .hasMessageContaining("redis://")
        .hasMessageContaining("snowid.machine-id / SNOWID_MACHINE_ID");
  }

  @Test
  void resolve_statefulSetNamedByTheOperator_takesAFiveDigitOrdinal() {
    env.pod("ids-24567").set("SNOWID_STATEFULSET", "ids");
    assertThat(chain(ip("10.1.2.3")).resolve(Layout.preset("sonyflake"), Map.of()))
        .containsExactly(Map.entry("machine", 24567L));
  }

  @Test
  void resolve_podOfAnotherStatefulSetThanTheOneNamed_throwsNamingTheSetting() {
    env.pod("web-3").set("SNOWID_STATEFULSET", "ids");
    assertThatThrownBy(() -> chain(ip("10.1.2.3")).resolve(twitter, Map.of()))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage(
            "SNOWID_STATEFULSET = ids is invalid; allowed: the name of this pod's StatefulSet: pod"
                + " web-3 is not ids-<ordinal>");
  }

  @Test
  void resolve_podNameNotTheHostName_isNotAnOrdinal() {
    env.pod("web-3").set("POD_NAME", "web-4");
    assertThatThrownBy(() -> chain(ip("10.1.2.3")).resolve(twitter, Map.of()))
        .isInstanceOf(UnsafeEnvironmentException.class)
        .hasMessageContaining("its host name web-3 is not its pod name web-4");
  }

  @Test
  void resolve_ordinalWithALeadingZero_isNotAnOrdinal() {
    env.pod("web-03");
    assertThatThrownBy(() -> chain(ip("10.1.2.3")).resolve(twitter, Map.of()))
        .isInstanceOf(UnsafeEnvironmentException.class)
        .hasMessageContaining("its name web-03 is not <statefulset>-<ordinal>");
  }

  @Test
  void resolve_insideKubernetesWithoutAnOrdinal_refusesNamingTheSafeSettings() {
    env.pod("api-7c9f8d6b5-xk2lp");
    assertThatThrownBy(() -> chain(ip("10.1.2.3")).resolve(twitter, Map.of()))
        .isInstanceOf(UnsafeEnvironmentException.class)
        .hasMessage(
            "no safe node id in a Kubernetes pod (KUBERNETES_SERVICE_HOST is set): the node"
                + " field(s) datacenter, worker have no value that differs between pods: the pod"
                + " is not a StatefulSet's (its name api-7c9f8d6b5-xk2lp is not"
                + " <statefulset>-<ordinal>), and node source auto takes them from the pod's IPv4"
                + " address; lease node ids across pods with snowid.node / SNOWID_NODE = redis://…"
                + " (or jdbc:postgresql://…), run it as a StatefulSet, or give each pod its own"
                + " snowid.datacenter-id and snowid.worker-id (SNOWID_DATACENTER_ID,"
                + " SNOWID_WORKER_ID)");
  }

  @Test
  void resolve_ordinalTooLargeForTheFieldsLeft_namesReplicasAndLimitWithoutRecordToString() {
    env.pod("idgen-40");
    assertThatThrownBy(() -> chain(ip("10.0.0.1")).resolve(twitter, Map.of("datacenter", 0L)))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage(
            "StatefulSet ordinal of pod idgen-40 = 40 is invalid; allowed: 0..31: StatefulSet idgen"
                + " has at least 41 replicas, but the node fields left to the ordinal (worker, 5"
                + " bits) tell at most 32 apart; run at most 32 replicas, use a layout with more"
                + " node bits, or lease node ids from a network coordinator (snowid.node /"
                + " SNOWID_NODE = redis://…)");
  }

  // The WARN of the IPv4 fallback names the settings of its mode.

  @Test
  void resolve_fromIpv4_warnsNamingEveryFieldItSetAndItsSettings() {
    Map<String, Long> v = chain(ip("192.168.7.200")).resolve(twitter, Map.of());
    assertThat(v).containsEntry("datacenter", 30L).containsEntry("worker", 8L);
    assertThat(warnings)
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith(
            "node datacenter=30, worker=8 taken from the low 10 bits of this host's IPv4"
                + " address 192.168.7.200 (node source auto)")
        .contains("snowid.datacenter-id and snowid.worker-id (SNOWID_DATACENTER_ID,")
        .contains("file:DIR")
        .doesNotContain("container");
  }

  @Test
  void resolve_fromIpv4InAContainer_warnsWithTheChanceThatContainersCollide() {
    env.docker();
    chain(ip("172.17.0.5")).resolve(twitter, Map.of());
    assertThat(warnings)
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .contains(
            "in a container (/.dockerenv exists) the address is the container's own: 2"
                + " containers collide with probability 0.098%, 5 with 1.0%, 10 with 4.3%");
  }

  @Test
  void resolve_noAddressNoSetting_namesTheSettingsAndTheLease() {
    assertThatThrownBy(() -> chain(new Ipv4Source(env)).resolve(twitter, Map.of()))
        .isInstanceOf(NodeIdUnavailableException.class)
        .hasMessageEndingWith(
            "; set snowid.datacenter-id and snowid.worker-id (SNOWID_DATACENTER_ID,"
                + " SNOWID_WORKER_ID), or lease node ids: snowid.node / SNOWID_NODE = file:DIR (the"
                + " processes of one host) or redis://… (several hosts)");
  }
}
