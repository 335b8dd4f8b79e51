package io.snowid.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class NodeIdChainTest {
  private final Layout twitter = Layout.twitter();
  private final Map<String, String> env = new HashMap<>();

  @AfterEach
  void clearProperties() {
    System.clearProperty("snowid.worker-id");
    System.clearProperty("snowid.datacenter-id");
  }

  private static Ipv4Source ip(String address) {
    return new Ipv4Source(
        () -> {
          try {
            return Optional.of((Inet4Address) InetAddress.getByName(address));
          } catch (UnknownHostException e) {
            throw new AssertionError(e);
          }
        });
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
    env.put("SNOWID_WORKER_ID", "1");
    env.put("SNOWID_DATACENTER_ID", "2");
    Map<String, Long> v = chain(ip("10.0.0.1")).resolve(twitter, Map.of());
    assertThat(v).containsEntry("worker", 9L).containsEntry("datacenter", 2L);
  }

  @Test
  void resolve_statefulSetOrdinalInsideKubernetes_spreadsOverUnsetFields() {
    env.put("KUBERNETES_SERVICE_HOST", "10.96.0.1");
    env.put("HOSTNAME", "idgen-37");
    Map<String, Long> v = chain(ip("10.0.0.1")).resolve(twitter, Map.of());
    assertThat(v).containsEntry("datacenter", 1L).containsEntry("worker", 5L); // 37 = 1<<5 | 5
  }

  @Test
  void resolve_hostNameWithDigitsOutsideKubernetes_isNotAnOrdinal() {
    env.put("HOSTNAME", "ip-10-0-0-3");
    Map<String, Long> v = chain(ip("192.168.7.200")).resolve(twitter, Map.of());
    // 10 low bits of 192.168.7.200: 7 << 8 | 200 = 1992 & 1023 = 968 = 30 << 5 | 8
    assertThat(v).containsEntry("datacenter", 30L).containsEntry("worker", 8L);
  }

  @Test
  void resolve_ordinalTooLargeForFields_throwsNamingTheRange() {
    env.put("KUBERNETES_SERVICE_HOST", "10.96.0.1");
    env.put("HOSTNAME", "idgen-40");
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
    env.put("SNOWID_DATACENTER_ID", "two");
    assertThatThrownBy(() -> chain(ip("10.0.0.1")).resolve(twitter, Map.of()))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("SNOWID_DATACENTER_ID");
  }

  @Test
  void resolve_noSourceHasAValue_throwsListingWhatWasTried() {
    NodeIdChain none = chain(new Ipv4Source(Optional::empty));
    assertThatThrownBy(() -> none.resolve(twitter, Map.of()))
        .isInstanceOf(NodeIdUnavailableException.class)
        .hasMessageContaining("snowid.worker-id")
        .hasMessageContaining("SNOWID_DATACENTER_ID")
        .hasMessageContaining("StatefulSet");
  }

  @Test
  void resolve_otherNodeFieldNames_useTheirOwnProperties() {
    env.put("SNOWID_MACHINE_ID", "65535");
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
}
