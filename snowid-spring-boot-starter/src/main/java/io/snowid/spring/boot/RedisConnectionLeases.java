package io.snowid.spring.boot;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.snowid.InvalidSettingException;
import io.snowid.lease.LeaseCoordinator;
import io.snowid.redis.RedisLeaseProvider;
import java.time.Duration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * {@code snowid.node=redis-connection}: leases on the Redis of the application's Spring Data Redis
 * Lettuce connection factory, through its client (snowid opens one connection of its own on it).
 */
final class RedisConnectionLeases implements LeaseConnection {
  private final LettuceConnectionFactory factory;

  RedisConnectionLeases(LettuceConnectionFactory factory) {
    this.factory = factory;
  }

  @Override
  public String name() {
    return "redis-connection";
  }

  @Override
  public Duration defaultTtl() {
    return new RedisLeaseProvider().defaultTtl();
  }

  @Override
  public LeaseCoordinator open(String options) {
    if (!factory.isRunning()) {
      factory.start();
    }
    AbstractRedisClient client = factory.getRequiredNativeClient();
    if (!(client instanceof RedisClient redis)) {
      throw new InvalidSettingException(
          "snowid.node",
          "redis-connection",
          "a Redis server or Sentinel connection (the application's is a "
              + client.getClass().getSimpleName()
              + "; give snowid.node=redis://… instead)");
    }
    return RedisLeaseProvider.open(redis, options);
  }

  @Override
  public String toString() {
    return "redis-connection (" + factory.getHostName() + ":" + factory.getPort() + ")";
  }
}
