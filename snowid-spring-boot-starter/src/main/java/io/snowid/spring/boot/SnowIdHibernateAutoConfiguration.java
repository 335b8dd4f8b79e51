package io.snowid.spring.boot;

import io.snowid.IdGenerator;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * {@code @SnowflakeId} entities (snowid-hibernate) take their IDs from the application's {@link
 * IdGenerator} through Hibernate's bean container, which Spring Boot sets up. This makes every JPA
 * {@code EntityManagerFactory} depend on the {@code IdGenerator} beans, so that the generator (and
 * its lease) is up before Hibernate starts and is closed only after Hibernate.
 */
@AutoConfiguration(after = SnowIdAutoConfiguration.class)
@ConditionalOnClass(
    name = {"io.snowid.hibernate.SnowflakeId", "jakarta.persistence.EntityManagerFactory"})
public class SnowIdHibernateAutoConfiguration {
  @Bean
  static BeanFactoryPostProcessor snowIdEntityManagerFactoryDependsOn() {
    return SnowIdHibernateAutoConfiguration::dependOnIdGenerators;
  }

  private static void dependOnIdGenerators(ConfigurableListableBeanFactory beanFactory) {
    String[] generators =
        BeanFactoryUtils.beanNamesForTypeIncludingAncestors(
            beanFactory, IdGenerator.class, true, false);
    if (generators.length == 0) {
      return;
    }
    for (String name :
        BeanFactoryUtils.beanNamesForTypeIncludingAncestors(
            beanFactory, jakarta.persistence.EntityManagerFactory.class, true, false)) {
      String definitionName = BeanFactoryUtils.transformedBeanName(name);
      if (!beanFactory.containsBeanDefinition(definitionName)) {
        continue;
      }
      BeanDefinition definition = beanFactory.getBeanDefinition(definitionName);
      Set<String> dependsOn = new LinkedHashSet<>();
      if (definition.getDependsOn() != null) {
        dependsOn.addAll(Arrays.asList(definition.getDependsOn()));
      }
      dependsOn.addAll(Arrays.asList(generators));
      definition.setDependsOn(dependsOn.toArray(new String[0]));
    }
  }
}
