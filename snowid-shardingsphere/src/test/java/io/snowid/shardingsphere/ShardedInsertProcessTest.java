package io.snowid.shardingsphere;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.Layout;
import io.snowid.testkit.ChildJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Three JVMs insert into one sharded table at once, through ShardingSphere-JDBC with the YAML
 * configuration docs/shardingsphere.md shows, on two databases of one server (PostgreSQL, then
 * MariaDB), each taking its node values from a lease in a table of the first database: every row
 * lands, in the shard of its user, and no key appears twice across the shards; each JVM's keys
 * carry node values of its own.
 */
@Tag("integration")
class ShardedInsertProcessTest {
  private static final int JVMS = 3;
  private static final int ROWS = 600; // per JVM, five per statement

  /** A server with two databases of the test's own. */
  enum Server {
    POSTGRESQL(
        "shardingsphere-postgresql.yaml",
        "jdbc:postgresql://127.0.0.1:5432/test?user=postgres",
        "jdbc:postgresql://127.0.0.1:5432/%s?user=postgres",
        "DROP DATABASE IF EXISTS %s WITH (FORCE)"),
    MARIADB(
        "shardingsphere-mariadb.yaml",
        "jdbc:mariadb://127.0.0.1:3306/test?user=root",
        "jdbc:mariadb://127.0.0.1:3306/%s?user=root",
        "DROP DATABASE IF EXISTS %s");

    final String yaml;
    final String admin;
    final String database;
    final String drop;

    Server(String yaml, String admin, String database, String drop) {
      this.yaml = yaml;
      this.admin = admin;
      this.database = database;
      this.drop = drop;
    }
  }

  @TempDir Path dir;
  private final List<Process> children = new ArrayList<>();
  private Runnable dropDatabases = () -> {};

  @AfterEach
  void cleanUp() {
    children.forEach(Process::destroyForcibly);
    dropDatabases.run();
  }

  @ParameterizedTest
  @EnumSource(Server.class)
  void threeJvmsInsertAtOnce_everyRowLandsAndNoKeyTwiceAcrossShards(Server server)
      throws Exception {
    // The first holders of a new lease table wait out a registry that lost its state,
    // maxTtl + maxSkew + 1 s (docs/node-ids.md): 4 s with these limits, 36 s with the defaults.
    ShardConfig config =
        ShardConfig.of(server.yaml)
            .replace("namespace=orders", "namespace=orders&ttl=2s&maxTtl=2s&maxSkew=1s");
    for (int i = 0; i < 2; i++) {
      String db = config.database(i);
      ShardConfig.execute(server.admin, "CREATE DATABASE " + db);
      Runnable before = dropDatabases;
      dropDatabases =
          () -> {
            before.run();
            try {
              ShardConfig.execute(server.admin, String.format(server.drop, db));
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
          };
      ShardConfig.execute(String.format(server.database, db), ShardConfig.TABLE_DDL);
    }
    Path yaml = config.write(dir.resolve("config.yaml"));

    List<BufferedReader> outputs = new ArrayList<>();
    for (int j = 0; j < JVMS; j++) {
      Process p =
          ChildJvm.of(
                  InsertMain.class,
                  List.of("-Xmx384m", "-XX:TieredStopAtLevel=1"),
                  yaml.toString(),
                  Long.toString((long) j * ROWS),
                  Integer.toString(ROWS))
              .redirectError(dir.resolve("jvm" + j + ".err").toFile())
              .start();
      children.add(p);
      outputs.add(
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)));
    }
    for (int j = 0; j < JVMS; j++) {
      assertThat(outputs.get(j).readLine()).as(stderr(j)).isEqualTo("ready");
    }
    String leases = String.format(server.database, config.database(0));
    assertThat(heldLeases(leases)).as("leases held, one per JVM").isEqualTo(JVMS);
    for (Process p : children) { // all at once
      OutputStream in = p.getOutputStream();
      in.write('\n');
      in.flush();
    }
    for (int j = 0; j < JVMS; j++) {
      assertThat(outputs.get(j).readLine()).as(stderr(j)).isEqualTo("inserted " + ROWS);
      assertThat(children.get(j).waitFor(2, TimeUnit.MINUTES)).as(stderr(j)).isTrue();
      assertThat(children.get(j).exitValue()).as(stderr(j)).isZero();
    }

    // ShardingSphere closes no key generator: snowid's shutdown hook released each lease
    assertThat(heldLeases(leases)).as("leases held after the JVMs exited").isZero();

    List<Long> keys = new ArrayList<>();
    Set<Long> users = new HashSet<>();
    Map<String, Set<Map<String, Long>>> nodesByJvm = new TreeMap<>();
    for (int i = 0; i < 2; i++) {
      try (Connection c =
              DriverManager.getConnection(String.format(server.database, config.database(i)));
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT order_id, user_id, note FROM t_order")) {
        while (rs.next()) {
          keys.add(rs.getLong(1));
          nodesByJvm
              .computeIfAbsent(rs.getString(3), n -> new HashSet<>())
              .add(Layout.twitter().decode(rs.getLong(1)).fields());
          users.add(rs.getLong(2));
          assertThat(rs.getLong(2) % 2).as("shard of user %s", rs.getLong(2)).isEqualTo(i);
        }
      }
    }
    assertThat(users).hasSize(JVMS * ROWS);
    assertThat(keys).hasSize(JVMS * ROWS);
    assertThat(new HashSet<>(keys)).as("distinct keys of both shards").hasSize(JVMS * ROWS);
    // each JVM's keys carry the node values of its one lease, and no two JVMs share them
    assertThat(nodesByJvm).hasSize(JVMS);
    Set<Map<String, Long>> nodes = new HashSet<>();
    nodesByJvm.values().forEach(n -> assertThat(n).as("node values of one JVM").hasSize(1));
    nodesByJvm.values().forEach(nodes::addAll);
    assertThat(nodes).as("node values of %s", nodesByJvm).hasSize(JVMS);
  }

  /** Rows of the lease table in the first database that name a holder (a lease token). */
  private static long heldLeases(String url) throws Exception {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT COUNT(*) FROM snowid_leases WHERE token IS NOT NULL AND node_id >= 0")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private String stderr(int jvm) {
    try {
      return "stderr of jvm " + jvm + ":\n" + Files.readString(dir.resolve("jvm" + jvm + ".err"));
    } catch (IOException e) {
      return "no stderr of jvm " + jvm + ": " + e;
    }
  }
}
