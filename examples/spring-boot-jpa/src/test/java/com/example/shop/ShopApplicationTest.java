package com.example.shop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The example against the real PostgreSQL (127.0.0.1:5432, database test), in tables of the
 * test's own, dropped afterwards: an order created over HTTP comes back with its Snowflake ID as a
 * JSON string, and Actuator's health has snowid UP.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.jpa.hibernate.ddl-auto=create-drop",
      "snowid.node=datasource?table=example_test_leases&create=true",
      "snowid.lease.ttl=2s"
    })
@Tag("integration")
class ShopApplicationTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @LocalServerPort int port;

  @AfterAll
  static void dropTheLeaseTable() throws Exception {
    try (Connection c =
            DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/test", "postgres", "");
        Statement s = c.createStatement()) {
      s.execute("drop table if exists example_test_leases");
    }
  }

  private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  @Test
  void createAndRead_idIsAJsonString() throws Exception {
    HttpResponse<String> created =
        send(
            HttpRequest.newBuilder(uri("/orders"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"item\":\"green tea\"}")));

    assertThat(created.statusCode()).isEqualTo(200);
    JsonNode id = JSON.readTree(created.body()).get("id");
    assertThat(id.isString()).as(created.body()).isTrue();
    assertThat(Long.parseLong(id.asString())).isGreaterThan(1L << 53); // beyond a JS Number

    HttpResponse<String> read = send(HttpRequest.newBuilder(uri("/orders/" + id.asString())));

    assertThat(read.statusCode()).isEqualTo(200);
    assertThat(read.body()).contains("\"id\":\"" + id.asString() + "\"");
  }

  @Test
  void health_snowidIsUp() throws Exception {
    // A new lease table: the first holder waits one lease time before its first ID, and health
    // says DOWN ("the first ID waits until …") until then.
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> send(HttpRequest.newBuilder(uri("/actuator/health"))).statusCode() == 200);
    HttpResponse<String> health = send(HttpRequest.newBuilder(uri("/actuator/health")));

    assertThat(health.statusCode()).isEqualTo(200);
    JsonNode snowid = JSON.readTree(health.body()).get("components").get("snowid");
    assertThat(snowid.get("status").asString()).isEqualTo("UP");
    assertThat(snowid.get("details").get("source").asString()).contains("example_test_leases");
  }
}
