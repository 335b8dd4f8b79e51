package io.snowid.spring.boot3;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The snowid jars built for Spring Boot 4, in a Spring Boot 3.5 application on the real PostgreSQL
 * (Hibernate 6.6, Jackson 2): node id leased through the DataSource, entities saved from many
 * threads, health and metrics over HTTP, IDs as JSON strings.
 */
@SpringBootTest(
    classes = Boot3App.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.datasource.url=" + SpringBoot35Test.POSTGRES,
      "spring.datasource.username=postgres",
      "spring.jpa.hibernate.ddl-auto=create-drop",
      "snowid.node=datasource?table=snowid_boot3_leases&create=true",
      "snowid.lease.ttl=1s",
      "snowid.lease.max-ttl=1s",
      "snowid.lease.max-skew=1s",
      // a datacenter of its own: the other class's context stays open in this JVM (Spring's
      // context cache), and one JVM's live generators never share node values
      "snowid.fields.datacenter=1",
      "management.endpoints.web.exposure.include=health,metrics",
      "management.endpoint.health.show-details=always"
    })
@Tag("integration")
class SpringBoot35Test {
  static final String POSTGRES = "jdbc:postgresql://127.0.0.1:5432/test";
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final ObjectMapper JSON = new ObjectMapper();

  @LocalServerPort int port;
  @Autowired Items items;
  @Autowired IdGenerator ids;
  @Autowired Snowflake snowflake;

  @AfterAll
  static void dropTheLeaseTable() throws Exception {
    try (Connection c = DriverManager.getConnection(POSTGRES, "postgres", "");
        Statement s = c.createStatement()) {
      s.execute("drop table if exists snowid_boot3_leases");
    }
  }

  private HttpResponse<String> get(String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void runsOnSpringBoot35AndHibernate66() {
    assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
    assertThat(org.hibernate.Version.getVersionString()).startsWith("6.6.");
  }

  @Test
  void saveFromManyThreads_noDuplicatesIncreasingPerThread_counted() throws Exception {
    double before = meter("snowid.ids.issued");
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Future<List<Long>>> futures = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      futures.add(
          pool.submit(
              () -> {
                List<Long> mine = new ArrayList<>();
                for (int i = 0; i < 50; i++) {
                  mine.add(items.save(new Boot3App.Item("n" + i)).getId());
                }
                return mine;
              }));
    }
    Set<Long> all = new HashSet<>();
    for (Future<List<Long>> f : futures) {
      assertThat(f.get()).isSorted().doesNotHaveDuplicates();
      all.addAll(f.get());
    }
    pool.shutdown();

    assertThat(all).hasSize(200);
    assertThat(meter("snowid.ids.issued") - before).isEqualTo(200.0);
  }

  @Test
  void health_overHttp_hasSnowidUp() throws Exception {
    // a new lease table: the first lease starts after maxTtl + maxSkew + 1s, and health says DOWN
    // until then
    assertThat(snowflake.awaitReady(Duration.ofSeconds(30))).isTrue();
    HttpResponse<String> health = get("/actuator/health");

    assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
    JsonNode snowid = JSON.readTree(health.body()).get("components").get("snowid");
    assertThat(snowid.get("status").asText()).isEqualTo("UP");
    assertThat(snowid.get("details").get("held").asBoolean()).isTrue();
    assertThat(snowid.get("details").get("source").asText()).contains("snowid_boot3_leases");
  }

  @Test
  void itemAsJson_idIsAString() throws Exception {
    HttpResponse<String> created =
        HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/items"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"pen\"}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());

    JsonNode id = JSON.readTree(created.body()).get("id");
    assertThat(id.isTextual()).as(created.body()).isTrue();
    assertThat(get("/items/" + id.asText()).body()).contains("\"id\":\"" + id.asText() + "\"");
  }

  private double meter(String name) throws Exception {
    HttpResponse<String> r = get("/actuator/metrics/" + name);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return JSON.readTree(r.body()).get("measurements").get(0).get("value").asDouble();
  }
}
