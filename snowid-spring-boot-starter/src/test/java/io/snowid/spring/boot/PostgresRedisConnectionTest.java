package io.snowid.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.snowid.Layout;
import io.snowid.Snowflake;
import io.snowid.spring.boot.app.Coupons;
import io.snowid.spring.boot.app.Orders;
import io.snowid.spring.boot.app.ShopApplication;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The test application on the real PostgreSQL, its node id leased through its own Spring Data Redis
 * connection ({@code snowid.node=redis-connection}) on the real Redis: entities saved from many
 * threads, Actuator's health and metrics over HTTP, IDs as JSON strings, and a lease taken away
 * (its keys deleted) turning health DOWN with the reason until the lease is back.
 */
@SpringBootTest(
    classes = ShopApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.datasource.url=jdbc:postgresql://127.0.0.1:5432/test",
      "spring.datasource.username=postgres",
      "spring.jpa.hibernate.ddl-auto=create-drop",
      "spring.data.redis.host=127.0.0.1",
      "spring.data.redis.port=6379",
      "snowid.lease.ttl=1s",
      "snowid.lease.max-ttl=1s",
      "snowid.lease.max-skew=1s",
      "management.endpoints.web.exposure.include=health,metrics",
      "management.endpoint.health.show-details=always"
    })
@DirtiesContext
@Tag("integration")
class PostgresRedisConnectionTest {
  private static final String PREFIX = TestRedis.uniquePrefix();

  @DynamicPropertySource
  static void node(DynamicPropertyRegistry registry) {
    registry.add("snowid.node", () -> "redis-connection?prefix=" + PREFIX);
  }

  @AfterAll
  static void deleteKeys() {
    TestRedis.deletePrefix(PREFIX);
  }

  @LocalServerPort int port;
  @Autowired Orders orders;
  @Autowired Coupons coupons;
  @Autowired Snowflake snowflake;

  /**
   * A new prefix: its first holder waits out a loss (max-ttl + 2 × max-skew + 1 s = 4 s) before its
   * first ID, and health is DOWN until then (waiting for the node's high-water mark).
   */
  @BeforeEach
  void waitForTheFirstLease() {
    await().atMost(Duration.ofSeconds(20)).until(() -> snowflake.nodeStatus().held());
  }

  private Http http() {
    return new Http(port);
  }

  private double meter(String name) throws Exception {
    Http.Answer a = http().get("/actuator/metrics/" + name);
    assertThat(a.status()).as(a.body()).isEqualTo(200);
    return a.json().get("measurements").get(0).get("value").asDouble();
  }

  @Test
  void saveFromManyThreads_noDuplicatesIncreasingPerThread_allCountedAsIssued() throws Exception {
    double issuedBefore = meter("snowid.ids.issued");

    Set<Long> ids = ManyThreads.saveAndCheck(orders, coupons, 8, 100);

    assertThat(meter("snowid.ids.issued") - issuedBefore).isEqualTo(1600.0);
    // every id carries this node's values, leased from Redis under the test's prefix
    assertThat(ids)
        .allSatisfy(
            id -> assertThat(Layout.twitter().decode(id).fields()).isEqualTo(snowflake.node()));
    assertThat(TestRedis.keys(PREFIX)).isNotEmpty();
  }

  @Test
  void health_overHttp_isUpWithTheLeaseDetails() throws Exception {
    Http.Answer a = http().get("/actuator/health");

    assertThat(a.status()).as(a.body()).isEqualTo(200);
    JsonNode snowid = a.json().get("components").get("snowid");
    assertThat(snowid.get("status").asString()).isEqualTo("UP");
    JsonNode details = snowid.get("details");
    assertThat(details.get("held").asBoolean()).isTrue();
    assertThat(details.get("source").asString())
        .contains("application's connection")
        .contains(PREFIX);
    assertThat(details.get("values").has("worker")).isTrue();
    assertThat(details.get("values").has("datacenter")).isTrue();
    assertThat(details.get("validUntil").asString()).isNotBlank();
    assertThat(details.get("layout").asString()).isEqualTo(Layout.twitter().spec());
  }

  @Test
  void metrics_overHttp_nameEverySnowIdMeter() throws Exception {
    JsonNode names = http().get("/actuator/metrics").json().get("names");

    assertThat(names.valueStream().map(JsonNode::asString))
        .contains(
            "snowid.ids.issued",
            "snowid.generator.waits",
            "snowid.clock.steps",
            "snowid.lease.renewals",
            "snowid.lease.renewal.failures",
            "snowid.lease.held",
            "snowid.layout.lifetime.remaining");
    assertThat(meter("snowid.lease.held")).isEqualTo(1.0);
    assertThat(meter("snowid.layout.lifetime.remaining")).isBetween(50.0, 54.0); // until 2080
    await().atMost(Duration.ofSeconds(10)).until(() -> meter("snowid.lease.renewals") > 0);
  }

  @Test
  void orderAsJson_idIsAStringAboveTwoToThe53() throws Exception {
    Http.Answer created = http().postJson("/orders", "{\"item\":\"tea\"}");
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    JsonNode id = created.json().get("id");
    assertThat(id.isString()).as(created.body()).isTrue();
    long value = Long.parseLong(id.asString());
    assertThat(value).isGreaterThan(1L << 53);

    Http.Answer read = http().get("/orders/" + value);

    assertThat(read.status()).isEqualTo(200);
    assertThat(read.body()).contains("\"id\":\"" + value + "\"").contains("\"item\":\"tea\"");
  }

  @Test
  void health_whenTheLeaseIsTakenAway_isDownWithTheReason_thenUpAgain() throws Exception {
    TestRedis.deletePrefix(PREFIX); // as if Redis lost its data: the holder must fence

    AtomicReference<Http.Answer> down = new AtomicReference<>();
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(50))
        .until(
            () -> {
              Http.Answer a = http().get("/actuator/health");
              down.set(a);
              return a.status() == 503;
            });
    JsonNode snowid = down.get().json().get("components").get("snowid");
    assertThat(snowid.get("status").asString()).isEqualTo("DOWN");
    JsonNode details = snowid.get("details");
    assertThat(details.get("held").asBoolean()).isFalse();
    assertThat(details.get("detail").asString())
        .as(down.get().body())
        .isNotBlank()
        .isNotEqualTo("held");
    await()
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> http().get("/actuator/health").status() == 200);
    assertThat(snowflake.nodeStatus().held()).isTrue();
  }
}
