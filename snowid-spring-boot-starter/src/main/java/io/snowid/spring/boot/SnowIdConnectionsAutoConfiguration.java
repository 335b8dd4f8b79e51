package io.snowid.spring.boot;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The application's connections that {@code snowid.node} can name ({@link LeaseConnection}s), each
 * when its snowid module and the application's connection are there. After the auto-configurations
 * of those connections (Spring Boot 4 and 3 names).
 */
@AutoConfiguration(
    afterName = {
      "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
      "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
      "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
      "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration"
    })
public class SnowIdConnectionsAutoConfiguration {
  /** {@code datasource}: snowid-jdbc on the application's one DataSource. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = {"io.snowid.jdbc.JdbcLeaseProvider", "javax.sql.DataSource"})
  static class DataSourceConnection {
    @Bean
    @ConditionalOnSingleCandidate(javax.sql.DataSource.class)
    LeaseConnection snowIdDataSourceConnection(javax.sql.DataSource dataSource) {
      return new DataSourceLeases(dataSource);
    }
  }

  /** {@code redis-connection}: snowid-redis on Spring Data Redis's Lettuce connection. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(
      name = {
        "io.snowid.redis.RedisLeaseProvider",
        "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory"
      })
  static class RedisConnection {
    @Bean
    @ConditionalOnBean(LettuceConnectionFactory.class)
    LeaseConnection snowIdRedisConnection(LettuceConnectionFactory factory) {
      return new RedisConnectionLeases(factory);
    }
  }
}
