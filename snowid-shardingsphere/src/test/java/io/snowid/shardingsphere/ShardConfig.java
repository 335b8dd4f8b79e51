package io.snowid.shardingsphere;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * A ShardingSphere YAML of the test resources (the files docs/shardingsphere.md shows) on databases
 * of a test's own: {@code orders_0} and {@code orders_1} renamed to unique names, and extra text
 * replaced where a test needs it (a property misspelt, shorter lease times).
 */
final class ShardConfig {
  /** The ids of the sharded table's rows, each shard's table. */
  static final String TABLE_DDL =
      "CREATE TABLE t_order (order_id BIGINT PRIMARY KEY, user_id BIGINT NOT NULL,"
          + " note VARCHAR(100))";

  private final String yaml;
  private final String prefix;

  private ShardConfig(String yaml, String prefix) {
    this.yaml = yaml;
    this.prefix = prefix;
  }

  /** The resource {@code name}, on databases {@code <unique>_0} and {@code <unique>_1}. */
  static ShardConfig of(String name) throws IOException {
    try (InputStream in = ShardConfig.class.getResourceAsStream("/" + name)) {
      if (in == null) {
        throw new IOException("no test resource " + name);
      }
      String prefix = "ss_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return new ShardConfig(
          text.replace("orders_0", prefix + "_0").replace("orders_1", prefix + "_1"), prefix);
    }
  }

  /** The same configuration with {@code from} replaced by {@code to}, which must occur. */
  ShardConfig replace(String from, String to) {
    if (!yaml.contains(from)) {
      throw new IllegalArgumentException(from + " is not in the configuration");
    }
    return new ShardConfig(yaml.replace(from, to), prefix);
  }

  /** The name of shard {@code i}'s database. */
  String database(int i) {
    return prefix + "_" + i;
  }

  byte[] bytes() {
    return yaml.getBytes(StandardCharsets.UTF_8);
  }

  /** Writes it to {@code file}, for a child JVM. */
  Path write(Path file) throws IOException {
    return Files.writeString(file, yaml);
  }

  /** Runs statements on {@code url} (a server's administration database). */
  static void execute(String url, String... statements) throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    }
  }
}
