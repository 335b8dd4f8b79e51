package io.snowid.shardingsphere;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.Layout;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.apache.shardingsphere.driver.api.yaml.YamlShardingSphereDataSourceFactory;
import org.junit.jupiter.api.Test;

/**
 * ShardingSphere-JDBC with a YAML configuration whose key generator is {@code type: SNOWID}, on two
 * H2 databases in memory: the sharded table's keys are snowid's, and a wrong property stops the
 * data source from being made, naming the property.
 */
class ShardingSphereYamlTest {
  private static String h2(ShardConfig config, int shard) {
    return "jdbc:h2:mem:" + config.database(shard) + ";DB_CLOSE_DELAY=-1";
  }

  private static ShardConfig withTables(ShardConfig config) throws Exception {
    for (int i = 0; i < 2; i++) {
      ShardConfig.execute(h2(config, i) + ";USER=sa", ShardConfig.TABLE_DDL);
    }
    return config;
  }

  @Test
  void insertThroughTheLogicalTable_keysAreSnowIdsOnBothShards() throws Exception {
    ShardConfig config = withTables(ShardConfig.of("shardingsphere-h2.yaml"));
    DataSource ds = YamlShardingSphereDataSourceFactory.createDataSource(config.bytes());
    try (Connection c = ds.getConnection();
        PreparedStatement insert =
            c.prepareStatement("INSERT INTO t_order (user_id, note) VALUES (?, ?), (?, ?)")) {
      for (int user = 0; user < 20; user += 2) {
        insert.setLong(1, user);
        insert.setString(2, "row " + user);
        insert.setLong(3, user + 1);
        insert.setString(4, "row " + (user + 1));
        assertThat(insert.executeUpdate()).isEqualTo(2);
      }
    } finally {
      ((AutoCloseable) ds).close();
    }

    List<Long> ids = new ArrayList<>();
    for (int shard = 0; shard < 2; shard++) {
      List<Long> here = new ArrayList<>();
      try (Connection c = DriverManager.getConnection(h2(config, shard) + ";USER=sa");
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT order_id, user_id FROM t_order")) {
        while (rs.next()) {
          assertThat(rs.getLong(2) % 2).as("shard of user %s", rs.getLong(2)).isEqualTo(shard);
          here.add(rs.getLong(1));
        }
      }
      assertThat(here).as("rows of shard %s", shard).hasSize(10);
      ids.addAll(here);
    }
    assertThat(ids).hasSize(20).doesNotHaveDuplicates();
    for (long id : ids) {
      assertThat(Layout.twitter().decode(id).fields())
          .containsEntry("datacenter", 0L)
          .containsEntry("worker", 7L);
    }
  }

  @Test
  void misspeltProperty_failsTheDataSourceNamingIt() throws Exception {
    ShardConfig config =
        withTables(ShardConfig.of("shardingsphere-h2.yaml").replace("node: static", "nod: static"));

    assertThatThrownBy(() -> YamlShardingSphereDataSourceFactory.createDataSource(config.bytes()))
        .hasMessageContaining("unknown property 'nod' of the SNOWID key generator")
        .hasMessageContaining("did you mean node?");
  }

  @Test
  void badLayout_failsTheDataSourceNamingIt() throws Exception {
    ShardConfig config =
        withTables(
            ShardConfig.of("shardingsphere-h2.yaml").replace("layout: twitter", "layout: twiter"));

    assertThatThrownBy(() -> YamlShardingSphereDataSourceFactory.createDataSource(config.bytes()))
        .hasMessageContaining("layout = twiter is invalid")
        .hasMessageContaining("did you mean twitter?");
  }
}
