package io.snowid.spring.boot.mybatis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.baomidou.mybatisplus.core.incrementer.IdentifierGenerator;
import com.baomidou.mybatisplus.core.toolkit.IdWorker;
import io.snowid.IdGenerator;
import io.snowid.Snowflake;
import io.snowid.codec.IdCodec;
import io.snowid.mybatisplus.SnowIdIdentifierGenerator;
import io.snowid.spring.boot.SnowIdAutoConfiguration;
import io.snowid.spring.boot.SnowIdConnectionsAutoConfiguration;
import io.snowid.spring.boot.SnowIdMybatisPlusAutoConfiguration;
import java.io.InputStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The starter with MyBatis-Plus on the class path (H2 in memory, a lease directory of the test's
 * own): {@code ASSIGN_ID} and {@code ASSIGN_UUID} keys come from the starter's generator with
 * nothing written for it, an application's own {@code IdentifierGenerator} wins, and a wrong {@code
 * snowid.mybatis-plus.*} property fails the start naming it.
 */
@ExtendWith(OutputCaptureExtension.class)
class MybatisPlusStarterTest {
  @TempDir Path leases;

  private ConfigurableApplicationContext start(String db, String... properties) throws Exception {
    String url = "jdbc:h2:mem:" + db + ";DB_CLOSE_DELAY=-1";
    try (Connection c = DriverManager.getConnection(url, "sa", "");
        Statement s = c.createStatement()) {
      s.execute(
          "create table if not exists payment"
              + " (id bigint primary key, payer varchar(20), cents bigint)");
      s.execute(
          "create table if not exists ticket (code varchar(20) primary key, title varchar(20))");
    }
    List<String> all =
        new ArrayList<>(
            List.of(
                "spring.datasource.url=" + url,
                "spring.datasource.username=sa",
                "snowid.node=file:" + leases));
    all.addAll(List.of(properties));
    return new SpringApplicationBuilder(LedgerApplication.class)
        .web(WebApplicationType.NONE)
        .properties(all.toArray(new String[0]))
        .run();
  }

  @Test
  void assignId_takesTheStartersIds_withNothingWrittenForIt() throws Exception {
    try (ConfigurableApplicationContext context = start("mp_assign_id")) {
      Snowflake snowflake = context.getBean(Snowflake.class);
      IdGenerator ids = context.getBean(IdGenerator.class);
      Payments payments = context.getBean(Payments.class);

      long before = ids.nextId();
      Payment p = new Payment("ana", 1250);
      payments.insert(p); // p.getId() is now a snowid ID
      List<Payment> batch = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        batch.add(new Payment("bo", i));
      }
      payments.insert(batch); // one ID each, in one JDBC batch
      long after = ids.nextId();

      List<Long> keys = new ArrayList<>(List.of(p.getId()));
      batch.forEach(b -> keys.add(b.getId()));
      assertThat(keys).isSorted().doesNotHaveDuplicates().allMatch(k -> k > before && k < after);
      assertThat(keys)
          .allMatch(k -> snowflake.layout().decode(k).fields().equals(snowflake.node()));
      assertThat(payments.selectById(p.getId()).getPayer()).isEqualTo("ana");
      assertThat(payments.selectCount(null)).isEqualTo(101);
      assertThat(context.getBean(IdentifierGenerator.class))
          .isInstanceOf(SnowIdIdentifierGenerator.class);
      long worker = IdWorker.getId(); // MyBatis-Plus's static helper, set from the same bean
      assertThat(worker).isGreaterThan(after);
      assertThat(snowflake.layout().decode(worker).fields()).isEqualTo(snowflake.node());
    }
  }

  @Test
  void assignUuid_theIdInTheConfiguredForm() throws Exception {
    try (ConfigurableApplicationContext context =
        start("mp_assign_uuid", "snowid.mybatis-plus.uuid-form=base62")) {
      Snowflake snowflake = context.getBean(Snowflake.class);
      Tickets tickets = context.getBean(Tickets.class);
      List<String> codes = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        Ticket t = new Ticket("t" + i);
        tickets.insert(t);
        codes.add(t.getCode());
      }

      assertThat(codes).isSorted().doesNotHaveDuplicates().allMatch(c -> c.length() == 11);
      assertThat(codes)
          .allMatch(
              c ->
                  snowflake
                      .layout()
                      .decode(IdCodec.BASE62.decode(c))
                      .fields()
                      .equals(snowflake.node()));
      assertThat(tickets.selectById(codes.get(3)).getTitle()).isEqualTo("t3");
    }
  }

  @Test
  void badUuidForm_failsTheStartNamingThePropertyAndTheForms(CapturedOutput output) {
    assertThatThrownBy(() -> start("mp_bad_form", "snowid.mybatis-plus.uuid-form=base62x"))
        .isNotNull();

    assertThat(output)
        .contains("APPLICATION FAILED TO START")
        .contains("Origin: \"snowid.mybatis-plus.uuid-form\"")
        .contains(
            "snowid.mybatis-plus.uuid-form = base62x is invalid; allowed: one of decimal, hex,"
                + " base32, base32check, base36, base62, base62-legacy, base64url; did you mean"
                + " base62?");
  }

  @Test
  void unknownMybatisPlusProperty_failsTheStartNamingIt(CapturedOutput output) {
    assertThatThrownBy(() -> start("mp_unknown", "snowid.mybatis-plus.uuid-fromat=base62"))
        .isNotNull();

    assertThat(output)
        .contains("APPLICATION FAILED TO START")
        .contains("snowid.mybatis-plus.uuid-fromat");
  }

  private ApplicationContextRunner runner() {
    return new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                SnowIdConnectionsAutoConfiguration.class,
                SnowIdAutoConfiguration.class,
                SnowIdMybatisPlusAutoConfiguration.class))
        .withPropertyValues("snowid.node=file:" + leases);
  }

  @Test
  void applicationsOwnIdentifierGenerator_startersBacksOff() {
    IdentifierGenerator own = entity -> 42L;
    runner()
        .withBean("ownKeys", IdentifierGenerator.class, () -> own)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).getBean(IdentifierGenerator.class).isSameAs(own);
              assertThat(context).doesNotHaveBean(SnowIdIdentifierGenerator.class);
            });
  }

  @Test
  void noIdGenerator_noIdentifierGenerator() {
    runner()
        .withPropertyValues("snowid.enabled=false")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).doesNotHaveBean(IdentifierGenerator.class);
            });
  }

  @Test
  void twoIdGeneratorsNonePrimary_failsTheStartInsteadOfMybatisPlusKeys() {
    try (Snowflake a =
            Snowflake.builder()
                .layout("twitter")
                .nodeSource("static:worker=7,datacenter=3")
                .build();
        Snowflake b =
            Snowflake.builder()
                .layout("twitter")
                .nodeSource("static:worker=8,datacenter=3")
                .build()) {
      runner()
          .withBean("a", IdGenerator.class, () -> a)
          .withBean("b", IdGenerator.class, () -> b)
          .run(
              context ->
                  assertThat(context)
                      .getFailure()
                      .rootCause()
                      .hasMessageContaining("expected single matching bean but found 2: a,b"));
    }
  }

  @Test
  void applicationsOwnIdGenerator_isTheOneUsed() {
    try (Snowflake own =
        Snowflake.builder().layout("twitter").nodeSource("static:worker=9,datacenter=3").build()) {
      runner()
          .withBean(IdGenerator.class, () -> own)
          .run(
              context -> {
                IdentifierGenerator keys = context.getBean(IdentifierGenerator.class);
                long id = keys.nextId(new Payment()).longValue();
                assertThat(own.layout().decode(id).fields()).isEqualTo(own.node());
              });
    }
  }

  @Test
  void metadata_describesUuidFormWithItsDefaultAndValues() throws Exception {
    JsonNode metadata;
    try (InputStream in =
        SnowIdAutoConfiguration.class.getResourceAsStream(
            "/META-INF/spring-configuration-metadata.json")) {
      metadata = JsonMapper.builder().build().readTree(in);
    }
    JsonNode property =
        metadata
            .get("properties")
            .valueStream()
            .filter(p -> p.get("name").asString().equals("snowid.mybatis-plus.uuid-form"))
            .findFirst()
            .orElseThrow();
    JsonNode hint =
        metadata
            .get("hints")
            .valueStream()
            .filter(h -> h.get("name").asString().equals("snowid.mybatis-plus.uuid-form"))
            .findFirst()
            .orElseThrow();

    assertThat(property.get("defaultValue").asString()).isEqualTo("decimal");
    assertThat(property.get("description").asString()).contains("ASSIGN_UUID");
    assertThat(hint.get("values").valueStream().map(v -> v.get("value").asString()))
        .containsExactlyElementsOf(IdCodec.names());
  }
}
