package io.snowid.spring.boot;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/**
 * The shared Redis at 127.0.0.1:6379, seen directly (not through the application): each test uses a
 * key prefix of its own and deletes its keys.
 */
final class TestRedis {
  private TestRedis() {}

  static String uniquePrefix() {
    return "snowid-boot-test-" + UUID.randomUUID().toString().substring(0, 12);
  }

  static <T> T with(Function<RedisCommands<String, String>, T> f) {
    RedisClient client = RedisClient.create("redis://127.0.0.1:6379");
    try (StatefulRedisConnection<String, String> c = client.connect()) {
      return f.apply(c.sync());
    } finally {
      client.shutdown();
    }
  }

  static List<String> keys(String prefix) {
    return with(r -> r.keys("{" + prefix + "}:*"));
  }

  /** The node ids held in the prefix's namespaces (members of their {@code held} sets). */
  static long held(String prefix) {
    return with(
        r -> {
          long n = 0;
          for (String k : r.keys("{" + prefix + "}:*:held")) {
            n += r.zcard(k);
          }
          return n;
        });
  }

  static void deletePrefix(String prefix) {
    with(
        r -> {
          List<String> keys = r.keys("{" + prefix + "}:*");
          return keys.isEmpty() ? 0L : r.del(keys.toArray(new String[0]));
        });
  }
}
