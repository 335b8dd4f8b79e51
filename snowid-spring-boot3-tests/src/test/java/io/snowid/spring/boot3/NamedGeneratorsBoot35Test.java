package io.snowid.spring.boot3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.snowid.IdGenerator;
import io.snowid.Snowflake;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A named generator ({@code events}, sonyflake) beside the unnamed one on Spring Boot 3.5, both
 * leasing through the application's DataSource on PostgreSQL: the {@code snowid} health component
 * is a composite of both, and the {@code snowid} endpoint lists and decodes over HTTP.
 */
@SpringBootTest(
    classes = Boot3App.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.datasource.url=" + SpringBoot35Test.POSTGRES,
      "spring.datasource.username=postgres",
      "spring.jpa.hibernate.ddl-auto=create-drop",
      "snowid.node=datasource?table=snowid_boot3_named_leases&create=true",
      "snowid.lease.ttl=1s",
      "snowid.lease.max-ttl=1s",
      "snowid.lease.max-skew=1s",
      // a datacenter of its own: the other class's context stays open in this JVM (Spring's
      // context cache), and one JVM's live generators never share node values
      "snowid.fields.datacenter=2",
      "snowid.generators.events.layout=sonyflake",
      "management.endpoints.web.exposure.include=health,metrics,snowid",
      "management.endpoint.health.show-details=always"
    })
@Tag("integration")
class NamedGeneratorsBoot35Test {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final ObjectMapper JSON = new ObjectMapper();

  @LocalServerPort int port;
  @Autowired List<Snowflake> snowflakes;

  @Autowired
  @Qualifier("events")
  IdGenerator events;

  @AfterAll
  static void dropTheLeaseTable() throws Exception {
    try (Connection c = DriverManager.getConnection(SpringBoot35Test.POSTGRES, "postgres", "");
        Statement s = c.createStatement()) {
      s.execute("drop table if exists snowid_boot3_named_leases");
    }
  }

  @BeforeEach
  void waitForTheLeases() {
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> snowflakes.stream().allMatch(s -> s.nodeStatus().held()));
  }

  private HttpResponse<String> get(String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void health_isACompositeOfBothGenerators() throws Exception {
    HttpResponse<String> health = get("/actuator/health");

    assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
    JsonNode snowid = JSON.readTree(health.body()).get("components").get("snowid");
    assertThat(snowid.get("status").asText()).isEqualTo("UP");
    assertThat(snowid.get("components").get("default").get("details").get("held").asBoolean())
        .isTrue();
    assertThat(snowid.get("components").get("events").get("details").get("values").has("machine"))
        .isTrue();
  }

  @Test
  void endpoint_listsBoth_andDecodesWithTheNamedLayout() throws Exception {
    HttpResponse<String> list = get("/actuator/snowid");
    assertThat(list.statusCode()).as(list.body()).isEqualTo(200);
    JsonNode generators = JSON.readTree(list.body()).get("generators");
    assertThat(generators.get(0).get("name").asText()).isEqualTo("default");
    assertThat(generators.get(1).get("name").asText()).isEqualTo("events");
    assertThat(generators.get(1).get("lease").get("scheme").asText()).isEqualTo("jdbc:postgresql:");

    long id = events.nextId();
    HttpResponse<String> decoded = get("/actuator/snowid/events/" + id);
    assertThat(decoded.statusCode()).as(decoded.body()).isEqualTo(200);
    assertThat(JSON.readTree(decoded.body()).get("fields").has("machine")).isTrue();

    HttpResponse<String> bad = get("/actuator/snowid/events/not-an-id");
    assertThat(bad.statusCode()).as(bad.body()).isEqualTo(400);
    assertThat(JSON.readTree(bad.body()).get("error").asText()).contains("not-an-id");
  }

  @Test
  void meters_areTaggedWithTheGenerator() throws Exception {
    events.nextId();
    HttpResponse<String> r = get("/actuator/metrics/snowid.ids.issued?tag=generator:events");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(JSON.readTree(r.body()).get("measurements").get(0).get("value").asDouble())
        .isGreaterThanOrEqualTo(1.0);
  }
}
