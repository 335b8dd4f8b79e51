package io.snowid.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.IdGenerator;
import io.snowid.Snowflake;
import io.snowid.spring.boot.app.Coupons;
import io.snowid.spring.boot.app.Orders;
import io.snowid.spring.boot.app.ShopApplication;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.json.JsonMapper;

/**
 * The test application on H2 with a {@code file:} lease in a directory of its own and the js53
 * layout: entities saved from many threads, the Jackson mapper Boot configured writes entity ids as
 * strings in the configured form.
 */
@SpringBootTest(
    classes = ShopApplication.class,
    properties = {
      "spring.datasource.url=jdbc:h2:mem:snowid_boot;DB_CLOSE_DELAY=-1",
      "spring.jpa.hibernate.ddl-auto=create-drop",
      "spring.data.redis.repositories.enabled=false",
      "snowid.layout=js53",
      "snowid.json.format=base62"
    })
@DirtiesContext
class H2FileLeaseTest {
  @DynamicPropertySource
  static void node(DynamicPropertyRegistry registry) throws IOException {
    Path dir = Files.createTempDirectory("snowid-boot-leases");
    registry.add("snowid.node", () -> "file:" + dir);
  }

  @Autowired Orders orders;
  @Autowired Coupons coupons;
  @Autowired Snowflake snowflake;
  @Autowired IdGenerator ids;
  @Autowired JsonMapper json;

  @Test
  void saveFromManyThreads_noDuplicatesIncreasingPerThread() throws Exception {
    assertThat(ManyThreads.saveAndCheck(orders, coupons, 4, 100))
        .allSatisfy(id -> assertThat(id).isLessThan(1L << 53)); // js53
    assertThat(snowflake.nodeStatus().source()).startsWith("file:");
  }

  @Test
  void bootsJsonMapper_writesEntityIdsInTheConfiguredForm() {
    io.snowid.spring.boot.app.Order saved = orders.save(new io.snowid.spring.boot.app.Order("pen"));

    String text = json.writeValueAsString(saved);

    assertThat(text)
        .contains("\"id\":\"" + io.snowid.codec.IdCodec.BASE62.encode(saved.getId()) + "\"");
  }
}
