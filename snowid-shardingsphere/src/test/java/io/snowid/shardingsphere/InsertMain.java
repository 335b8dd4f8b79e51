package io.snowid.shardingsphere;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import javax.sql.DataSource;
import org.apache.shardingsphere.driver.api.yaml.YamlShardingSphereDataSourceFactory;

/**
 * A child JVM of {@link ShardedInsertProcessTest}: makes ShardingSphere's data source from a YAML
 * file, prints {@code ready}, waits for a line on standard input, inserts its rows through the
 * logical table {@code t_order} (five per statement, users {@code first..first+rows-1}), prints
 * {@code inserted N} and exits, closing the data source (its generator is closed by snowid's
 * shutdown hook).
 *
 * <p>Arguments: {@code YAML FIRST_USER ROWS}.
 */
public final class InsertMain {
  private static final int PER_STATEMENT = 5;

  private InsertMain() {}

  public static void main(String[] args) throws Exception {
    File yaml = new File(args[0]);
    long first = Long.parseLong(args[1]);
    int rows = Integer.parseInt(args[2]);
    DataSource ds = YamlShardingSphereDataSourceFactory.createDataSource(yaml);
    try {
      System.out.println("ready");
      System.out.flush();
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      if (in.readLine() == null) {
        return;
      }
      int inserted = 0;
      StringBuilder sql = new StringBuilder("INSERT INTO t_order (user_id, note) VALUES (?, ?)");
      sql.append(", (?, ?)".repeat(PER_STATEMENT - 1));
      try (Connection c = ds.getConnection();
          PreparedStatement insert = c.prepareStatement(sql.toString())) {
        for (long user = first; user < first + rows; user += PER_STATEMENT) {
          for (int i = 0; i < PER_STATEMENT; i++) {
            insert.setLong(2 * i + 1, user + i);
            insert.setString(2 * i + 2, "from " + first);
          }
          inserted += insert.executeUpdate();
        }
      }
      System.out.println("inserted " + inserted);
      System.out.flush();
    } finally {
      ((AutoCloseable) ds).close();
    }
  }
}
