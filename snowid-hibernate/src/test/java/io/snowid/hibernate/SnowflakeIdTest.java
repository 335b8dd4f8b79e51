package io.snowid.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.IdGenerator;
import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import io.snowid.SnowId;
import io.snowid.Snowflake;
import io.snowid.codec.IdCodec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.hibernate.SessionFactory;
import org.hibernate.resource.beans.container.spi.BeanContainer;
import org.hibernate.resource.beans.container.spi.ContainedBean;
import org.hibernate.resource.beans.spi.BeanInstanceProducer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link SnowflakeId} with plain Hibernate on the real PostgreSQL and on H2: entities saved from
 * many threads get unique ids that increase in each thread, in every id type; the ids come from the
 * bean container's IdGenerator when it has one, else from the SnowId facade.
 */
class SnowflakeIdTest {
  private static final int THREADS = 8;
  private static final int PER_THREAD = 150;

  @Test
  void persist_manyThreadsOnH2_uniqueAndIncreasingPerThread() throws Exception {
    persistFromManyThreads("jdbc:h2:mem:snowid_hib;DB_CLOSE_DELAY=-1");
  }

  /** The same on PostgreSQL, a server: the integration tier's. */
  @Tag("integration")
  @Test
  void persist_manyThreadsOnPostgres_uniqueAndIncreasingPerThread() throws Exception {
    persistFromManyThreads(Databases.POSTGRES);
  }

  private void persistFromManyThreads(String url) throws Exception {
    try (SessionFactory db =
        Databases.open(
            url, null, Entities.Order.class, Entities.Line.class, Entities.Coupon.class)) {
      List<List<Long>> perThread =
          inThreads(
              () -> {
                List<Long> mine = new ArrayList<>();
                for (int i = 0; i < PER_THREAD; i++) {
                  Entities.Order o = new Entities.Order("item " + i);
                  Entities.Line l = new Entities.Line();
                  Entities.Coupon c = new Entities.Coupon();
                  db.inTransaction(
                      s -> {
                        s.persist(o);
                        s.persist(l);
                        s.persist(c);
                      });
                  mine.add(o.id);
                  mine.add(l.id);
                  mine.add(IdCodec.BASE62.decode(c.code));
                  assertThat(c.code).hasSize(11);
                }
                return mine;
              });

      Set<Long> all = new HashSet<>();
      for (List<Long> ids : perThread) {
        assertThat(ids).isSorted().doesNotHaveDuplicates();
        all.addAll(ids);
      }
      assertThat(all).hasSize(THREADS * PER_THREAD * 3);
      long rows =
          db.fromTransaction(
              s ->
                  s.createSelectionQuery("select count(o) from Order o", Long.class)
                          .getSingleResult()
                      + s.createSelectionQuery("select count(l) from Line l", Long.class)
                          .getSingleResult()
                      + s.createSelectionQuery("select count(c) from Coupon c", Long.class)
                          .getSingleResult());
      assertThat(rows).isEqualTo(THREADS * PER_THREAD * 3L);
      // no bean container: the facade's generator issued them, with its node values
      Map<String, Long> node = SnowId.generator().node();
      assertThat(all).allSatisfy(id -> assertThat(SnowId.decode(id).fields()).isEqualTo(node));
    }
  }

  @Test
  void beanContainer_withAnIdGenerator_issuesTheIds() {
    try (Snowflake bean = Snowflake.builder().node("datacenter", 3).node("worker", 17).build();
        SessionFactory db =
            Databases.open(
                "jdbc:h2:mem:snowid_hib_bean", new Container(bean), Entities.Order.class)) {
      Entities.Order o = new Entities.Order("x");
      db.inTransaction(s -> s.persist(o));

      assertThat(Layout.twitter().decode(o.id).fields())
          .isEqualTo(Map.of("datacenter", 3L, "worker", 17L));
    }
  }

  @Test
  void beanContainer_withoutIdGenerator_fallsBackToTheFacade() {
    try (SessionFactory db =
        Databases.open("jdbc:h2:mem:snowid_hib_none", new Container(null), Entities.Order.class)) {
      Entities.Order o = new Entities.Order("x");
      db.inTransaction(s -> s.persist(o));

      assertThat(SnowId.decode(o.id).fields()).isEqualTo(SnowId.generator().node());
    }
  }

  @Test
  void idOfAnotherType_failsTheStartNamingThePropertyAndTheTypes() {
    assertThatThrownBy(
            () -> Databases.open("jdbc:h2:mem:snowid_hib_bad", null, Entities.TooSmall.class))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("@SnowflakeId TooSmall.id")
        .hasMessageContaining("java.lang.Integer")
        .hasMessageContaining("long, Long or String");
  }

  @Test
  void unknownFormat_failsTheStartNamingTheFormats() {
    assertThatThrownBy(
            () -> Databases.open("jdbc:h2:mem:snowid_hib_fmt", null, Entities.BadFormat.class))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("@SnowflakeId(format) of BadFormat.id")
        .hasMessageContaining("base99")
        .hasMessageContaining("base62");
  }

  private static <T> List<T> inThreads(Callable<T> task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        futures.add(pool.submit(task));
      }
      List<T> results = new ArrayList<>();
      for (Future<T> f : futures) {
        results.add(f.get());
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  /** A bean container (as Spring's) holding one IdGenerator, or none. */
  private static final class Container implements BeanContainer {
    private final IdGenerator bean;

    Container(IdGenerator bean) {
      this.bean = bean;
    }

    @Override
    public <B> ContainedBean<B> getBean(
        Class<B> type, LifecycleOptions options, BeanInstanceProducer fallback) {
      B instance =
          bean != null && type.isInstance(bean)
              ? type.cast(bean)
              : fallback.produceBeanInstance(type);
      return new ContainedBean<>() {
        @Override
        public Class<B> getBeanClass() {
          return type;
        }

        @Override
        public B getBeanInstance() {
          return instance;
        }
      };
    }

    @Override
    public <B> ContainedBean<B> getBean(
        String name, Class<B> type, LifecycleOptions options, BeanInstanceProducer fallback) {
      return getBean(type, options, fallback);
    }

    @Override
    public void stop() {}
  }
}
