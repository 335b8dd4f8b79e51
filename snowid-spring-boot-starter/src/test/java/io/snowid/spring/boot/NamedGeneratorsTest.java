package io.snowid.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.IdGenerator;
import io.snowid.Layout;
import io.snowid.Snowflake;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Configuration;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Named generators on one {@code file:} lease directory: one {@code Snowflake} and one {@code
 * IdGenerator} bean per name, injected by qualifier, the unnamed one the default; a layout of the
 * default's ID space (worker=10 beside datacenter=5,worker=5) leases from the same namespace key
 * and gets other node values; sonyflake leases from a key of its own.
 */
@SpringBootTest(
    classes = NamedGeneratorsTest.App.class,
    properties = {
      "snowid.generators.invoices.layout="
          + "time=41,worker=10,sequence=12,epoch=2010-11-04T01:42:54.657Z,unit=1ms",
      "snowid.generators.events.layout=sonyflake",
      "snowid.generators.events.lease.max-ttl=20s", // relaxed forms of every kind bind
      "snowid.generators.events.lease.fields[0]=machine",
      "snowid.generators.events.clock.maxWait=2s"
    })
@DirtiesContext
class NamedGeneratorsTest {
  static final Path LEASES;

  static {
    try {
      LEASES = Files.createTempDirectory("snowid-named-leases");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ImportAutoConfiguration({
    SnowIdConnectionsAutoConfiguration.class,
    SnowIdAutoConfiguration.class,
    SnowIdGeneratorsAutoConfiguration.class
  })
  static class App {}

  @DynamicPropertySource
  static void node(DynamicPropertyRegistry registry) {
    registry.add("snowid.node", () -> "file:" + LEASES);
  }

  @Autowired Snowflake defaultSnowflake;
  @Autowired IdGenerator defaultIds;

  @Autowired
  @Qualifier("invoices")
  Snowflake invoicesSnowflake;

  @Autowired
  @Qualifier("invoices")
  IdGenerator invoicesIds;

  @Autowired
  @Qualifier("events")
  Snowflake eventsSnowflake;

  @Autowired
  @Qualifier("events")
  IdGenerator eventsIds;

  @Autowired List<Snowflake> everySnowflake;
  @Autowired SnowIdGenerators generators;

  @Test
  void eachName_getsItsOwnBeans_theUnqualifiedOnesAreTheDefault() {
    assertThat(everySnowflake).hasSize(3).doesNotHaveDuplicates();
    assertThat(defaultSnowflake.layout()).isEqualTo(Layout.twitter());
    assertThat(invoicesSnowflake.layout().spec()).startsWith("time=41,worker=10,");
    assertThat(eventsSnowflake.layout()).isEqualTo(Layout.preset("sonyflake"));
    assertThat(defaultIds).isInstanceOf(CountedIdGenerator.class);
    assertThat(invoicesIds).isInstanceOf(CountedIdGenerator.class).isNotSameAs(defaultIds);
    assertThat(invoicesIds.layout()).isEqualTo(invoicesSnowflake.layout());
    assertThat(eventsIds.layout()).isEqualTo(eventsSnowflake.layout());
    assertThat(generators.names()).containsExactly("default", "invoices", "events");
  }

  @Test
  void idsOfEachGenerator_areItsOwnAndCounted() {
    long before = ((CountedIdGenerator) invoicesIds).issued();
    Set<Long> ids = new HashSet<>();
    for (int i = 0; i < 1000; i++) {
      ids.add(invoicesIds.nextId());
    }
    assertThat(ids).hasSize(1000);
    assertThat(((CountedIdGenerator) invoicesIds).issued() - before).isEqualTo(1000);
    long event = eventsIds.nextId();
    assertThat(eventsSnowflake.layout().decode(event).fields()).isEqualTo(eventsSnowflake.node());
  }

  @Test
  void layoutsOfOneIdSpace_leaseOneNamespace_withDifferentNodeValues() throws IOException {
    long defaultPacked = defaultSnowflake.layout().packNode(defaultSnowflake.node());
    long invoicesPacked = invoicesSnowflake.layout().packNode(invoicesSnowflake.node());
    assertThat(invoicesPacked).isNotEqualTo(defaultPacked);

    assertThat(Layout.twitter().idSpace()).isEqualTo(invoicesSnowflake.layout().idSpace());
    try (Stream<Path> folders = Files.list(LEASES)) {
      // one namespace key per ID space: none of the generator's name
      assertThat(folders.filter(Files::isDirectory).map(p -> p.getFileName().toString()).toList())
          .containsExactlyInAnyOrder(
              "default." + Layout.twitter().idSpace(),
              "default." + Layout.preset("sonyflake").idSpace());
    }
  }
}
