package io.snowid.spring.boot;

import io.snowid.Snowflake;
import java.util.List;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.support.AutowireCandidateQualifier;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * The generators of {@code snowid.generators.<name>}: per name a {@link SnowIdNode} (the generator
 * and its own lease), a {@link Snowflake} and a {@link CountedIdGenerator}, both with the qualifier
 * {@code name}, unless {@code snowid.enabled=false}; and {@link SnowIdGenerators}, every generator
 * by name (with {@code snowid.enabled=false}, the application's own {@code Snowflake}). Runs after
 * {@link SnowIdAutoConfiguration}, so that the unnamed generator's
 * {@code @ConditionalOnMissingBean} sees only the application's beans. See design.md, "Several
 * generators".
 */
@AutoConfiguration(after = SnowIdAutoConfiguration.class)
@Import(SnowIdGeneratorsAutoConfiguration.Registrar.class)
public class SnowIdGeneratorsAutoConfiguration {
  @Bean
  SnowIdGenerators snowIdGenerators(
      ListableBeanFactory beanFactory,
      ObjectProvider<Snowflake> snowflakes,
      ObjectProvider<CountedIdGenerator> counted) {
    return SnowIdGenerators.of(
        beanFactory.getBeansOfType(SnowIdNode.class).values(), snowflakes, counted);
  }

  /** The beans of each name, read from the environment ({@link GeneratorNames#of}). */
  static final class Registrar
      implements ImportBeanDefinitionRegistrar, EnvironmentAware, BeanFactoryAware {
    private Environment environment;
    private BeanFactory beanFactory;

    @Override
    public void setEnvironment(Environment environment) {
      this.environment = environment;
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
      this.beanFactory = beanFactory;
    }

    @Override
    public void registerBeanDefinitions(
        AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
      if (!GeneratorNames.enabled(environment)) {
        return;
      }
      SnowIdKeys.check(environment);
      for (String name : GeneratorNames.of(environment)) {
        register(name, registry);
      }
    }

    private void register(String name, BeanDefinitionRegistry registry) {
      String node = "snowIdNode." + name;
      String snowflake = "snowflake." + name;
      RootBeanDefinition n = new RootBeanDefinition(SnowIdNode.class, () -> start(name));
      n.setDestroyMethodName("close");
      n.setAutowireCandidate(false); // the unnamed generator's beans take the one SnowIdNode
      registry.registerBeanDefinition(node, n);

      // a fallback: an unqualified Snowflake is the unnamed one, and @Qualifier(name) IdGenerator
      // is the counted one below, not this
      RootBeanDefinition s =
          new RootBeanDefinition(
              Snowflake.class, () -> beanFactory.getBean(node, SnowIdNode.class).snowflake());
      s.setDependsOn(node);
      s.setDestroyMethodName("close");
      s.setFallback(true);
      s.addQualifier(new AutowireCandidateQualifier(Qualifier.class, name));
      registry.registerBeanDefinition(snowflake, s);

      RootBeanDefinition c =
          new RootBeanDefinition(
              CountedIdGenerator.class,
              () -> beanFactory.getBean(node, SnowIdNode.class).counted());
      c.setDependsOn(snowflake);
      c.addQualifier(new AutowireCandidateQualifier(Qualifier.class, name));
      registry.registerBeanDefinition("snowIdGenerator." + name, c);
    }

    private SnowIdNode start(String name) {
      SnowIdProperties p = beanFactory.getBean(SnowIdProperties.class);
      GeneratorProperties g = p.getGenerators().get(name);
      if (g == null) {
        throw new IllegalStateException("snowid.generators." + name + " was not bound");
      }
      List<LeaseConnection> connections =
          beanFactory.getBeanProvider(LeaseConnection.class).orderedStream().toList();
      return SnowIdNode.start(name, g.inheriting(p), connections);
    }
  }
}
