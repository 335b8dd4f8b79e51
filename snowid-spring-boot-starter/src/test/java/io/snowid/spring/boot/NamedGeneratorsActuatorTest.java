package io.snowid.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.snowid.IdGenerator;
import io.snowid.Layout;
import io.snowid.Snowflake;
import io.snowid.spring.boot.app.ShopApplication;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The test application with two named generators beside the unnamed one, all leasing from the real
 * Redis under one prefix: {@code invoices} (worker=10, the twitter layout's ID space) and {@code
 * events} (sonyflake). Over HTTP: one health component per generator under {@code snowid}, meters
 * tagged {@code generator=<name>}, and the {@code snowid} endpoint listing and decoding.
 */
@SpringBootTest(
    classes = ShopApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.datasource.url=jdbc:h2:mem:snowid_named;DB_CLOSE_DELAY=-1",
      "spring.jpa.hibernate.ddl-auto=create-drop",
      "spring.data.redis.repositories.enabled=false",
      "snowid.lease.ttl=1s", // every generator takes these from the top level
      "snowid.lease.max-ttl=1s",
      "snowid.lease.max-skew=1s",
      "snowid.generators.invoices.layout="
          + "time=41,worker=10,sequence=12,epoch=2010-11-04T01:42:54.657Z,unit=1ms",
      "snowid.generators.events.layout=sonyflake",
      "management.endpoints.web.exposure.include=health,metrics,snowid",
      "management.endpoint.health.show-details=always"
    })
@DirtiesContext
@Tag("integration")
class NamedGeneratorsActuatorTest {
  private static final String PREFIX = TestRedis.uniquePrefix();

  @DynamicPropertySource
  static void node(DynamicPropertyRegistry registry) {
    registry.add("snowid.node", () -> "redis://127.0.0.1:6379?prefix=" + PREFIX);
  }

  @AfterAll
  static void deleteKeys() {
    TestRedis.deletePrefix(PREFIX);
  }

  @LocalServerPort int port;
  @Autowired List<Snowflake> snowflakes;
  @Autowired Snowflake defaultSnowflake;

  @Autowired
  @Qualifier("invoices")
  Snowflake invoices;

  @Autowired
  @Qualifier("events")
  Snowflake events;

  @Autowired
  @Qualifier("invoices")
  IdGenerator invoiceIds;

  @Autowired
  @Qualifier("events")
  IdGenerator eventIds;

  /** A new prefix: each namespace's first holder waits out a loss (4 s) before its first ID. */
  @BeforeEach
  void waitForTheLeases() {
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> snowflakes.stream().allMatch(s -> s.nodeStatus().held()));
  }

  private Http http() {
    return new Http(port);
  }

  @Test
  void leases_oneIdSpaceSharesANamespace_withOtherValues_sonyflakeHasItsOwn() {
    assertThat(snowflakes).hasSize(3);
    assertThat(invoices.layout().idSpace()).isEqualTo(Layout.twitter().idSpace());
    assertThat(invoices.layout().packNode(invoices.node()))
        .isNotEqualTo(defaultSnowflake.layout().packNode(defaultSnowflake.node()));
    List<String> namespaces = new ArrayList<>();
    for (String key : TestRedis.keys(PREFIX)) {
      if (key.endsWith(":held")) {
        namespaces.add(key);
      }
    }
    assertThat(namespaces)
        .hasSize(2)
        .anySatisfy(k -> assertThat(k).contains(Layout.twitter().idSpace()))
        .anySatisfy(k -> assertThat(k).contains(Layout.preset("sonyflake").idSpace()));
    assertThat(TestRedis.held(PREFIX)).isEqualTo(3);
  }

  @Test
  void health_hasOneComponentPerGenerator_underSnowid() throws Exception {
    Http.Answer a = http().get("/actuator/health");

    assertThat(a.status()).as(a.body()).isEqualTo(200);
    JsonNode snowid = a.json().get("components").get("snowid");
    assertThat(snowid.get("status").asString()).isEqualTo("UP");
    JsonNode each = snowid.get("components");
    assertThat(each.propertyNames()).containsExactly("default", "events", "invoices");
    assertThat(each.get("invoices").get("details").get("layout").asString())
        .isEqualTo(invoices.layout().spec());
    assertThat(each.get("events").get("details").get("values").has("machine")).isTrue();
    assertThat(each.get("default").get("details").get("values").has("datacenter")).isTrue();
    assertThat(each.get("default").get("details").get("source").asString()).contains(PREFIX);
  }

  @Test
  void meters_areTaggedWithTheGenerator() throws Exception {
    for (int i = 0; i < 7; i++) {
      invoiceIds.nextId();
    }
    eventIds.nextId();

    assertThat(count("snowid.ids.issued?tag=generator:invoices")).isEqualTo(7.0);
    assertThat(count("snowid.ids.issued?tag=generator:events")).isEqualTo(1.0);
    assertThat(count("snowid.lease.held?tag=generator:events")).isEqualTo(1.0);
    JsonNode tags = http().get("/actuator/metrics/snowid.lease.held").json().get("availableTags");
    assertThat(tags.get(0).get("tag").asString()).isEqualTo("generator");
    assertThat(tags.get(0).get("values").valueStream().map(JsonNode::asString))
        .containsExactlyInAnyOrder("default", "invoices", "events");
    assertThat(count("snowid.layout.lifetime.remaining?tag=generator:events"))
        .isBetween(160.0, 164.0); // sonyflake's 174 years from 2014: until 2188
  }

  private double count(String meter) throws Exception {
    Http.Answer a = http().get("/actuator/metrics/" + meter);
    assertThat(a.status()).as(a.body()).isEqualTo(200);
    return a.json().get("measurements").get(0).get("value").asDouble();
  }

  @Test
  void endpoint_listsEveryGenerator_withoutSecrets() throws Exception {
    Http.Answer a = http().get("/actuator/snowid");

    assertThat(a.status()).as(a.body()).isEqualTo(200);
    JsonNode list = a.json().get("generators");
    assertThat(list.valueStream().map(g -> g.get("name").asString()))
        .containsExactly("default", "invoices", "events");
    JsonNode events = list.get(2);
    assertThat(events.get("primary").asBoolean()).isFalse();
    assertThat(events.get("layout").asString()).isEqualTo(Layout.preset("sonyflake").spec());
    assertThat(events.get("values").get("machine").asLong())
        .isEqualTo(this.events.node().get("machine"));
    JsonNode lease = events.get("lease");
    assertThat(lease.get("state").asString()).isEqualTo("held");
    assertThat(lease.get("scheme").asString()).isEqualTo("redis://");
    assertThat(lease.get("source").asString())
        .startsWith("redis://127.0.0.1:6379")
        .doesNotContain("prefix=");
    assertThat(lease.get("deadline").asString()).isNotBlank();
    assertThat(events.get("lastInstant").asString()).startsWith("2188-");
    assertThat(events.get("lifetimeLeftDays").asLong()).isGreaterThan(365L * 150);
    assertThat(list.get(0).get("primary").asBoolean()).isTrue();
  }

  @Test
  void endpoint_decodesAnIdWithTheGeneratorsLayout() throws Exception {
    long id = invoiceIds.nextId();

    Http.Answer a = http().get("/actuator/snowid/invoices/" + id);

    assertThat(a.status()).as(a.body()).isEqualTo(200);
    JsonNode d = a.json();
    assertThat(d.get("generator").asString()).isEqualTo("invoices");
    assertThat(d.get("id").asString()).isEqualTo(Long.toString(id));
    assertThat(d.get("fields").get("worker").asLong()).isEqualTo(invoices.node().get("worker"));
    assertThat(d.get("timestamp").asString())
        .isEqualTo(invoices.layout().decode(id).instant().toString());
    assertThat(d.get("sequence").isNumber()).isTrue();
  }

  @Test
  void endpoint_badIdOrUnknownGenerator_isAnErrorSayingWhy() throws Exception {
    Http.Answer bad = http().get("/actuator/snowid/invoices/12x4");
    assertThat(bad.status()).as(bad.body()).isEqualTo(400);
    assertThat(bad.json().get("error").asString()).contains("12x4");

    Http.Answer unknown = http().get("/actuator/snowid/invoice/1");
    assertThat(unknown.status()).as(unknown.body()).isEqualTo(404);
    assertThat(unknown.json().get("error").asString())
        .contains("no generator invoice")
        .contains("did you mean invoices?");

    Http.Answer one = http().get("/actuator/snowid/events");
    assertThat(one.status()).as(one.body()).isEqualTo(200);
    assertThat(one.json().get("name").asString()).isEqualTo("events");
    assertThat(Map.of("state", one.json().get("lease").get("state").asString()))
        .containsEntry("state", "held");
  }
}
