package io.snowid.lease;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.Layout;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The folder a lease lives in is named by the namespace key. If a new snowid named it differently
 * from an old one, the two would lease from different folders of one directory and could share a
 * worker: these vectors are the keys snowid 0.1 (commit 2c92f3f) used, and must never change.
 */
class NamespaceKeyTest {
  private static List<Layout.Field> fields(Layout l, String... names) {
    return java.util.Arrays.stream(names).map(n -> l.field(n).orElseThrow()).toList();
  }

  @Test
  void namespaceKey_twitterWithFixedDatacenter_isTheKeyOfVersionOne() {
    Layout l = Layout.twitter();
    assertThat(
            LeaseHolder.namespaceKey("default", l, Map.of("datacenter", 2L), fields(l, "worker")))
        .isEqualTo("default.adc4e56c.worker.datacenter2");
  }

  @Test
  void namespaceKey_allFieldsLeased_isTheKeyOfVersionOne() {
    Layout l = Layout.twitter();
    assertThat(LeaseHolder.namespaceKey("orders", l, Map.of(), fields(l, "datacenter", "worker")))
        .isEqualTo("orders.adc4e56c.datacenter.worker");
  }

  @Test
  void namespaceKey_otherPresets_areTheKeysOfVersionOne() {
    Layout js53 = Layout.preset("js53");
    Layout discord = Layout.preset("discord");
    assertThat(LeaseHolder.namespaceKey("default", js53, Map.of(), fields(js53, "worker")))
        .isEqualTo("default.316cecf6.worker");
    assertThat(
            LeaseHolder.namespaceKey(
                "default", discord, Map.of("process", 3L), fields(discord, "worker")))
        .isEqualTo("default.c20e7a22.worker.process3");
  }
}
