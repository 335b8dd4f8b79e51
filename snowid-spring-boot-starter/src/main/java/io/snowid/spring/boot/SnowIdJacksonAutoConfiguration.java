package io.snowid.spring.boot;

import io.snowid.jackson.SnowIdJackson2Module;
import io.snowid.jackson.SnowIdModule;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.ClassUtils;

/**
 * IDs as JSON strings (snowid-jackson): the module as a bean, which Spring Boot registers with the
 * application's JSON mapper — for Jackson 3 ({@code JacksonModule} beans) and Jackson 2 ({@code
 * Module} beans), whichever the application uses. In the form {@code snowid.json.format}; for
 * properties marked {@code @IdString}, and with {@code snowid.json.entity-ids} (the default) for
 * {@code long} ids marked {@code @SnowflakeId} too.
 */
@AutoConfiguration(
    beforeName = {
      "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration",
      "org.springframework.boot.jackson2.autoconfigure.Jackson2AutoConfiguration",
      "org.springframework.boot.autoconfigure.jackson.JacksonAutoConfiguration"
    })
@ConditionalOnClass(name = "io.snowid.jackson.IdString")
@EnableConfigurationProperties(SnowIdProperties.class)
public class SnowIdJacksonAutoConfiguration {
  private static final String SNOWFLAKE_ID = "io.snowid.hibernate.SnowflakeId";

  /** Jackson 3. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "tools.jackson.databind.JacksonModule")
  static class Jackson3 {
    @Bean
    SnowIdModule snowIdJacksonModule(SnowIdProperties properties) {
      SnowIdModule.Builder b = SnowIdModule.builder().format(properties.getJson().getFormat());
      Class<? extends java.lang.annotation.Annotation> entityId = entityIdAnnotation(properties);
      if (entityId != null) {
        b.idAnnotation(entityId);
      }
      return b.build();
    }
  }

  /** Jackson 2. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "com.fasterxml.jackson.databind.Module")
  static class Jackson2 {
    @Bean
    SnowIdJackson2Module snowIdJackson2Module(SnowIdProperties properties) {
      SnowIdJackson2Module.Builder b =
          SnowIdJackson2Module.builder().format(properties.getJson().getFormat());
      Class<? extends java.lang.annotation.Annotation> entityId = entityIdAnnotation(properties);
      if (entityId != null) {
        b.idAnnotation(entityId);
      }
      return b.build();
    }
  }

  /** {@code @SnowflakeId} when snowid-hibernate is there and entity ids are wanted as strings. */
  static Class<? extends java.lang.annotation.Annotation> entityIdAnnotation(
      SnowIdProperties properties) {
    ClassLoader loader = SnowIdJacksonAutoConfiguration.class.getClassLoader();
    if (!properties.getJson().isEntityIds() || !ClassUtils.isPresent(SNOWFLAKE_ID, loader)) {
      return null;
    }
    return ClassUtils.resolveClassName(SNOWFLAKE_ID, loader)
        .asSubclass(java.lang.annotation.Annotation.class);
  }
}
