package io.snowid.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.IdGenerator;
import io.snowid.Snowflake;
import io.snowid.lease.LeaseLostException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * The lease lives with the application context: acquired when it starts, released (on the real
 * Redis) when it closes, with no JVM shutdown hook of snowid's.
 */
@Tag("integration")
class ContextCloseTest {
  private final String prefix = TestRedis.uniquePrefix();

  @Configuration(proxyBeanMethods = false)
  @ImportAutoConfiguration({
    DataRedisAutoConfiguration.class,
    SnowIdConnectionsAutoConfiguration.class,
    SnowIdAutoConfiguration.class
  })
  static class App {}

  @AfterEach
  void deleteKeys() {
    TestRedis.deletePrefix(prefix);
  }

  @Test
  void close_releasesTheLeaseAndStopsTheGenerator() {
    ConfigurableApplicationContext context =
        new SpringApplicationBuilder(App.class)
            .web(WebApplicationType.NONE)
            .properties(
                "spring.data.redis.host=127.0.0.1",
                "snowid.node=redis-connection?prefix=" + prefix,
                "snowid.lease.ttl=1s",
                "snowid.lease.max-ttl=1s",
                "snowid.lease.max-skew=1s")
            .run();
    Snowflake snowflake = context.getBean(Snowflake.class);
    IdGenerator ids = context.getBean(IdGenerator.class);
    assertThat(ids).isInstanceOf(CountedIdGenerator.class); // the primary IdGenerator
    assertThat(ids.nextId()).isPositive();
    assertThat(TestRedis.held(prefix)).isEqualTo(1);

    context.close();

    assertThat(TestRedis.held(prefix)).isZero();
    assertThat(snowflake.nodeStatus().held()).isFalse();
    assertThatThrownBy(snowflake::nextId)
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining("the generator was closed");
  }
}
