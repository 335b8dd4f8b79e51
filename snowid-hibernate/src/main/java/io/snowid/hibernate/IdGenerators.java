package io.snowid.hibernate;

import io.snowid.IdGenerator;
import io.snowid.SnowId;
import java.lang.System.Logger.Level;
import org.hibernate.resource.beans.container.spi.BeanContainer;
import org.hibernate.resource.beans.spi.BeanInstanceProducer;
import org.hibernate.resource.beans.spi.ManagedBeanRegistry;
import org.hibernate.service.ServiceRegistry;

/**
 * Where {@link SnowflakeId} ids come from: the {@link IdGenerator} of Hibernate's bean container
 * when it has one, else the {@link SnowId} facade.
 */
final class IdGenerators {
  /*
   * Rationale. snowid-hibernate names no framework: Hibernate's BeanContainer is the door. Spring
   * (Boot sets it up for every JPA application) answers getBean(IdGenerator.class) from its
   * context, so the starter's Snowflake bean, with its lease, health and meters, issues the ids;
   * an application with its own IdGenerator bean gets that one. The lifecycle options ask for the
   * shared instance (useJpaCompliantCreation=false: Spring then calls getBean, not createBean,
   * which would try to construct the interface). A container without such a bean calls the
   * fallback producer: the facade. No container (plain Hibernate): the facade.
   */
  private static final System.Logger LOG = System.getLogger("io.snowid.hibernate");

  private static final BeanContainer.LifecycleOptions SHARED =
      new BeanContainer.LifecycleOptions() {
        @Override
        public boolean canUseCachedReferences() {
          return true;
        }

        @Override
        public boolean useJpaCompliantCreation() {
          return false;
        }
      };

  /** Produces the facade's generator when the container has no IdGenerator, and says so. */
  private static final class Facade implements BeanInstanceProducer {
    private boolean used;

    @Override
    public <B> B produceBeanInstance(Class<B> type) {
      used = true;
      return type.cast(SnowId.generator());
    }

    @Override
    public <B> B produceBeanInstance(String name, Class<B> type) {
      return produceBeanInstance(type);
    }
  }

  private IdGenerators() {}

  /** The generator for the id {@code what} (for the log). */
  static IdGenerator of(ServiceRegistry registry, String what) {
    ManagedBeanRegistry beans = registry.getService(ManagedBeanRegistry.class);
    BeanContainer container = beans == null ? null : beans.getBeanContainer();
    Facade facade = new Facade();
    IdGenerator ids =
        container == null
            ? facade.produceBeanInstance(IdGenerator.class)
            : container.getBean(IdGenerator.class, SHARED, facade).getBeanInstance();
    LOG.log(
        Level.DEBUG,
        "@SnowflakeId {0}: IDs from {1}",
        what,
        facade.used ? "the SnowId facade" : "the bean " + ids);
    return ids;
  }
}
