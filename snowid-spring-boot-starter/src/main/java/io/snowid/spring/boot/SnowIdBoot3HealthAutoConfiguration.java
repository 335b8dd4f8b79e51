package io.snowid.spring.boot;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.util.ClassUtils;

/**
 * The {@code snowid} health component on Spring Boot 3 ({@link Boot3HealthIndicator}); on Boot 4
 * {@link SnowIdHealthAutoConfiguration} has it. Off with {@code
 * management.health.snowid.enabled=false}.
 */
@AutoConfiguration(after = SnowIdGeneratorsAutoConfiguration.class)
@ConditionalOnClass(name = Boot3HealthIndicator.INDICATOR)
@ConditionalOnMissingClass("org.springframework.boot.health.contributor.HealthIndicator")
@Conditional(SnowIdGeneratorsCondition.class)
@ConditionalOnProperty(
    prefix = "management.health.snowid",
    name = "enabled",
    havingValue = "true",
    matchIfMissing = true)
@org.springframework.context.annotation.Import(SnowIdBoot3HealthAutoConfiguration.Registrar.class)
public class SnowIdBoot3HealthAutoConfiguration {
  /**
   * Registers the component with Boot 3's {@code HealthContributor} as its type, so that Actuator
   * finds it among the health contributors before it is created.
   */
  static final class Registrar implements ImportBeanDefinitionRegistrar, BeanFactoryAware {
    private BeanFactory beanFactory;

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
      this.beanFactory = beanFactory;
    }

    @Override
    public void registerBeanDefinitions(
        AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
      if (registry.containsBeanDefinition("snowidHealthIndicator")) {
        return;
      }
      ClassLoader loader = SnowIdBoot3HealthAutoConfiguration.class.getClassLoader();
      RootBeanDefinition definition = new RootBeanDefinition();
      definition.setTargetType(
          ClassUtils.resolveClassName(Boot3HealthIndicator.CONTRIBUTOR, loader));
      definition.setInstanceSupplier(
          () -> Boot3HealthIndicator.of(beanFactory.getBean(SnowIdGenerators.class), loader));
      registry.registerBeanDefinition("snowidHealthIndicator", definition);
    }
  }
}
