package io.snowid.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The configuration metadata IDEs read (generated from {@link SnowIdProperties} at build time) has
 * every property with its type, default and description, and hints for the common values.
 */
class ConfigurationMetadataTest {
  @Test
  void metadata_describesEverySnowIdProperty() throws Exception {
    JsonNode metadata;
    try (InputStream in =
        getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
      metadata = JsonMapper.builder().build().readTree(in);
    }
    Map<String, JsonNode> properties = new HashMap<>();
    metadata.get("properties").forEach(p -> properties.put(p.get("name").asString(), p));

    assertThat(properties)
        .containsKeys(
            "snowid.enabled",
            "snowid.layout",
            "snowid.node",
            "snowid.fields",
            "snowid.lease.namespace",
            "snowid.lease.ttl",
            "snowid.lease.skew",
            "snowid.lease.start-wait",
            "snowid.lease.max-ttl",
            "snowid.lease.max-skew",
            "snowid.lease.connect-wait",
            "snowid.lease.renew",
            "snowid.lease.instance",
            "snowid.lease.fields",
            "snowid.clock.source",
            "snowid.clock.policy",
            "snowid.clock.max-wait",
            "snowid.lead",
            "snowid.json.format",
            "snowid.json.entity-ids",
            "snowid.generators");
    assertThat(properties.values())
        .allSatisfy(p -> assertThat(p.get("description").asString()).isNotBlank());
    assertThat(properties.get("snowid.lease.ttl").get("type").asString())
        .isEqualTo("java.time.Duration");
    assertThat(properties.get("snowid.layout").get("defaultValue").asString()).isEqualTo("twitter");
    assertThat(properties.get("snowid.clock.policy").get("type").asString())
        .isEqualTo("io.snowid.ClockPolicy");

    Map<String, JsonNode> hints = new HashMap<>();
    metadata.get("hints").forEach(h -> hints.put(h.get("name").asString(), h));
    assertThat(hints).containsKeys("snowid.node", "snowid.layout", "snowid.json.format");
    assertThat(
            hints
                .get("snowid.node")
                .get("values")
                .valueStream()
                .map(v -> v.get("value").asString()))
        .contains("datasource", "redis-connection", "auto");
  }
}
