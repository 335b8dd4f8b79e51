package io.snowid.mybatisplus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.baomidou.mybatisplus.annotation.IdType;
import com.baomidou.mybatisplus.annotation.TableId;
import com.baomidou.mybatisplus.annotation.TableName;
import com.baomidou.mybatisplus.core.MybatisConfiguration;
import com.baomidou.mybatisplus.core.MybatisSqlSessionFactoryBuilder;
import com.baomidou.mybatisplus.core.config.GlobalConfig;
import com.baomidou.mybatisplus.core.mapper.BaseMapper;
import com.baomidou.mybatisplus.core.toolkit.GlobalConfigUtils;
import com.baomidou.mybatisplus.core.toolkit.IdWorker;
import io.snowid.IdGenerator;
import io.snowid.SnowId;
import io.snowid.Snowflake;
import io.snowid.codec.IdCodec;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.ibatis.datasource.unpooled.UnpooledDataSource;
import org.apache.ibatis.mapping.Environment;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.apache.ibatis.transaction.jdbc.JdbcTransactionFactory;
import org.junit.jupiter.api.Test;

/**
 * MyBatis-Plus without Spring (its core on H2): the generator set in its {@code GlobalConfig} as
 * docs/mybatis-plus.md shows gives {@code ASSIGN_ID} keys, {@code ASSIGN_UUID} keys and {@code
 * IdWorker} the snowid generator's IDs.
 */
class PlainMybatisPlusTest {
  @TableName("mp_payment")
  public static class Payment {
    @TableId(type = IdType.ASSIGN_ID)
    private Long id;

    private int amount;

    public Payment() {}

    Payment(int amount) {
      this.amount = amount;
    }

    public int getAmount() {
      return amount;
    }
  }

  @TableName("mp_ticket")
  public static class Ticket {
    @TableId(type = IdType.ASSIGN_UUID)
    private String code;

    private String title;

    public Ticket() {}

    Ticket(String title) {
      this.title = title;
    }
  }

  public interface Payments extends BaseMapper<Payment> {}

  public interface Tickets extends BaseMapper<Ticket> {}

  /** A SqlSessionFactory on a new H2 database, with the generator set as the docs show. */
  private static SqlSessionFactory sessions(String db, IdentifierGeneratorChoice choice)
      throws Exception {
    String url = "jdbc:h2:mem:" + db + ";DB_CLOSE_DELAY=-1";
    try (Connection c = DriverManager.getConnection(url, "sa", "");
        Statement s = c.createStatement()) {
      s.execute("create table mp_payment (id bigint primary key, amount int not null)");
      s.execute("create table mp_ticket (code varchar(20) primary key, title varchar(40))");
    }
    MybatisConfiguration configuration =
        new MybatisConfiguration(
            new Environment(
                db,
                new JdbcTransactionFactory(),
                new UnpooledDataSource("org.h2.Driver", url, "sa", "")));
    choice.apply(configuration);
    configuration.addMapper(Payments.class);
    configuration.addMapper(Tickets.class);
    return new MybatisSqlSessionFactoryBuilder().build(configuration);
  }

  /** How a test sets the generator on a configuration. */
  private interface IdentifierGeneratorChoice {
    void apply(MybatisConfiguration configuration);
  }

  /** The lines of docs/mybatis-plus.md, "Without Spring". */
  private static void asTheDocsShow(MybatisConfiguration configuration) {
    GlobalConfig global =
        GlobalConfigUtils.defaults()
            .setIdentifierGenerator(new SnowIdIdentifierGenerator(SnowId.generator()));
    GlobalConfigUtils.setGlobalConfig(configuration, global); // before addMapper
  }

  @Test
  void assignId_asTheDocsShow_takesTheFacadesIds() throws Exception {
    SqlSessionFactory factory = sessions("mp_docs", PlainMybatisPlusTest::asTheDocsShow);
    Map<String, Long> node = SnowId.generator().node();
    long before = SnowId.next();
    List<Long> ids = new ArrayList<>();
    try (SqlSession session = factory.openSession(true)) {
      Payments payments = session.getMapper(Payments.class);
      for (int i = 0; i < 100; i++) {
        Payment p = new Payment(i);
        payments.insert(p);
        ids.add(p.id);
      }
      assertThat(payments.selectCount(null)).isEqualTo(100);
    }

    long after = SnowId.next();
    assertThat(ids).isSorted().doesNotHaveDuplicates().allMatch(id -> id > before && id < after);
    for (long id : ids) {
      assertThat(SnowId.generator().layout().decode(id).fields()).isEqualTo(node);
    }
    assertThat(SnowId.generator().layout().decode(IdWorker.getId()).fields()).isEqualTo(node);
  }

  @Test
  void assignUuid_isTheIdInTheChosenForm() throws Exception {
    try (Snowflake gen =
        Snowflake.builder().layout("twitter").nodeSource("static:worker=3,datacenter=1").build()) {
      SqlSessionFactory factory =
          sessions(
              "mp_uuid",
              c ->
                  GlobalConfigUtils.setGlobalConfig(
                      c,
                      GlobalConfigUtils.defaults()
                          .setIdentifierGenerator(
                              new SnowIdIdentifierGenerator(gen, IdCodec.named("base62")))));
      List<String> codes = new ArrayList<>();
      try (SqlSession session = factory.openSession(true)) {
        Tickets tickets = session.getMapper(Tickets.class);
        for (int i = 0; i < 50; i++) {
          Ticket t = new Ticket("t" + i);
          tickets.insert(t);
          codes.add(t.code);
        }
        assertThat(tickets.selectById(codes.get(7)).title).isEqualTo("t7");
      }

      assertThat(codes).isSorted().doesNotHaveDuplicates().allMatch(c -> c.length() == 11);
      for (String code : codes) {
        assertThat(gen.layout().decode(IdCodec.BASE62.decode(code)).fields())
            .isEqualTo(Map.of("datacenter", 1L, "worker", 3L));
      }
    }
  }

  @Test
  void nextId_isTheGeneratorsNext_andUuidDefaultsToDecimal() {
    try (Snowflake gen =
        Snowflake.builder().layout("twitter").nodeSource("static:worker=5,datacenter=2").build()) {
      SnowIdIdentifierGenerator mp = new SnowIdIdentifierGenerator(gen);

      long first = mp.nextId(new Object());
      String second = mp.nextUUID(new Object());
      long third = gen.nextId();

      assertThat(Long.parseLong(second)).isGreaterThan(first).isLessThan(third);
      assertThat(gen.layout().decode(first).fields())
          .isEqualTo(Map.of("datacenter", 2L, "worker", 5L));
      assertThat(mp.uuidForm()).isSameAs(IdCodec.DECIMAL);
      assertThat(mp.toString()).contains("ASSIGN_UUID as decimal");
    }
  }

  @Test
  void nullGeneratorOrForm_isRefusedNamingIt() {
    IdGenerator none = null;
    assertThatThrownBy(() -> new SnowIdIdentifierGenerator(none))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("ids");
    try (Snowflake gen =
        Snowflake.builder().layout("twitter").nodeSource("static:worker=6,datacenter=2").build()) {
      assertThatThrownBy(() -> new SnowIdIdentifierGenerator(gen, null))
          .isInstanceOf(NullPointerException.class)
          .hasMessage("uuidForm");
    }
  }
}
