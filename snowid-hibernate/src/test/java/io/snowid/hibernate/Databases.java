package io.snowid.hibernate;

import java.util.HashMap;
import java.util.Map;
import org.hibernate.SessionFactory;
import org.hibernate.boot.MetadataSources;
import org.hibernate.boot.registry.StandardServiceRegistry;
import org.hibernate.boot.registry.StandardServiceRegistryBuilder;

/** Plain Hibernate (no Spring) on the real PostgreSQL of this machine, or on H2 in memory. */
final class Databases {
  static final String POSTGRES = "jdbc:postgresql://127.0.0.1:5432/test";

  private Databases() {}

  static SessionFactory open(String url, Object beanContainer, Class<?>... entities) {
    Map<String, Object> settings = new HashMap<>();
    settings.put("hibernate.connection.url", url);
    settings.put("hibernate.connection.username", url.startsWith("jdbc:h2") ? "sa" : "postgres");
    settings.put("hibernate.connection.password", "");
    settings.put("hibernate.connection.pool_size", "10");
    settings.put("hibernate.hbm2ddl.auto", "create-drop");
    if (beanContainer != null) {
      settings.put("hibernate.resource.beans.container", beanContainer);
    }
    StandardServiceRegistry registry =
        new StandardServiceRegistryBuilder().applySettings(settings).build();
    try {
      MetadataSources sources = new MetadataSources(registry);
      for (Class<?> e : entities) {
        sources.addAnnotatedClass(e);
      }
      return sources.buildMetadata().buildSessionFactory();
    } catch (RuntimeException e) {
      StandardServiceRegistryBuilder.destroy(registry);
      throw e;
    }
  }
}
