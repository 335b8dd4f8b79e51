package io.snowid.spring.boot3mybatis;

import static org.assertj.core.api.Assertions.assertThat;

import com.baomidou.mybatisplus.core.incrementer.IdentifierGenerator;
import com.baomidou.mybatisplus.core.toolkit.IdWorker;
import io.snowid.IdGenerator;
import io.snowid.Snowflake;
import io.snowid.codec.IdCodec;
import io.snowid.mybatisplus.SnowIdIdentifierGenerator;
import io.snowid.spring.boot3mybatis.Boot3LedgerApp.Payment;
import io.snowid.spring.boot3mybatis.Boot3LedgerApp.Payments;
import io.snowid.spring.boot3mybatis.Boot3LedgerApp.Ticket;
import io.snowid.spring.boot3mybatis.Boot3LedgerApp.Tickets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The snowid starter and snowid-mybatis-plus (built for Spring Boot 4) with MyBatis-Plus's Boot 3
 * starter in a Spring Boot 3.5 application on the real PostgreSQL, node id leased through the
 * DataSource: {@code ASSIGN_ID} keys from a batch and from several threads, {@code ASSIGN_UUID}
 * keys in the configured form, all the starter's generator's.
 */
@Tag("integration")
class MybatisPlusBoot35Test {
  private static final String POSTGRES = "jdbc:postgresql://127.0.0.1:5432/test";

  private final String schema =
      "snowid_mp3_" + ProcessHandle.current().pid() + "_" + System.nanoTime();

  @BeforeEach
  void createTheTables() throws Exception {
    sql("create schema " + schema);
    sql("create table " + schema + ".payment (id bigint primary key, payer text not null)");
    sql("create table " + schema + ".ticket (code text primary key, title text not null)");
  }

  @AfterEach
  void dropTheSchema() throws Exception {
    sql("drop schema if exists " + schema + " cascade");
  }

  @Test
  void assignIdAndAssignUuid_takeTheStartersIds_onBoot35() throws Exception {
    try (ConfigurableApplicationContext context =
        new SpringApplicationBuilder(Boot3LedgerApp.class)
            .web(WebApplicationType.NONE)
            .properties(
                "spring.datasource.url=" + POSTGRES + "?currentSchema=" + schema,
                "spring.datasource.username=postgres",
                "snowid.node=datasource?create=true",
                "snowid.lease.ttl=1s",
                "snowid.lease.max-ttl=1s",
                "snowid.lease.max-skew=1s",
                "snowid.mybatis-plus.uuid-form=base32")
            .run()) {
      assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
      Snowflake snowflake = context.getBean(Snowflake.class);
      IdGenerator ids = context.getBean(IdGenerator.class);
      Payments payments = context.getBean(Payments.class);
      Tickets tickets = context.getBean(Tickets.class);
      assertThat(context.getBean(IdentifierGenerator.class))
          .isInstanceOf(SnowIdIdentifierGenerator.class);

      long before = ids.nextId();
      List<Payment> batch = new ArrayList<>();
      for (int i = 0; i < 1000; i++) {
        batch.add(new Payment("batch"));
      }
      payments.insert(batch);
      List<Long> keys = new ArrayList<>(batch.stream().map(Payment::getId).toList());
      ExecutorService pool = Executors.newFixedThreadPool(4);
      try {
        List<Future<List<Long>>> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
          threads.add(
              pool.submit(
                  () -> {
                    List<Long> mine = new ArrayList<>();
                    for (int i = 0; i < 100; i++) {
                      Payment p = new Payment("thread");
                      payments.insert(p);
                      mine.add(p.getId());
                    }
                    return mine;
                  }));
        }
        for (Future<List<Long>> f : threads) {
          assertThat(f.get()).isSorted(); // each thread's keys increase
          keys.addAll(f.get());
        }
      } finally {
        pool.shutdownNow();
      }
      Ticket ticket = new Ticket("boot 3.5");
      tickets.insert(ticket);
      long after = ids.nextId();

      assertThat(keys).hasSize(1400).doesNotHaveDuplicates();
      assertThat(keys.subList(0, 1000)).isSorted();
      assertThat(keys).allMatch(k -> k > before && k < after);
      assertThat(keys)
          .allMatch(k -> snowflake.layout().decode(k).fields().equals(snowflake.node()));
      assertThat(count("payment")).isEqualTo(1400);
      assertThat(ticket.getCode()).hasSize(13);
      long fromTicket = IdCodec.BASE32.decode(ticket.getCode());
      assertThat(fromTicket).isGreaterThan(before).isLessThan(after);
      assertThat(tickets.selectById(ticket.getCode()).getTitle()).isEqualTo("boot 3.5");
      assertThat(snowflake.layout().decode(IdWorker.getId()).fields()).isEqualTo(snowflake.node());
    }
  }

  private long count(String table) throws Exception {
    try (Connection c = DriverManager.getConnection(POSTGRES, "postgres", "");
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("select count(*) from " + schema + "." + table)) {
      r.next();
      return r.getLong(1);
    }
  }

  private static void sql(String statement) throws Exception {
    try (Connection c = DriverManager.getConnection(POSTGRES, "postgres", "");
        Statement s = c.createStatement()) {
      s.execute(statement);
    }
  }
}
