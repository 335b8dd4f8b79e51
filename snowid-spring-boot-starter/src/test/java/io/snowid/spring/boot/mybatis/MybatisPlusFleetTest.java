package io.snowid.spring.boot.mybatis;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.DecodedId;
import io.snowid.Layout;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Four instances of a MyBatis-Plus application (separate JVMs on this host) insert 10,000 rows
 * each, at once, through {@code @TableId(type = IdType.ASSIGN_ID)} into one PostgreSQL table, with
 * their node ids leased in the same database ({@code snowid.node=datasource?create=true}). One
 * fixes its datacenter, the others lease datacenter and worker: no two may hold the same node
 * values, so no key is issued twice.
 */
@Tag("integration")
class MybatisPlusFleetTest {
  private static final String POSTGRES = "jdbc:postgresql://127.0.0.1:5432/test";
  private static final int ROWS = 10_000;
  private static final long FIXED_DATACENTER = 0; // the value the leasing instances take first

  private final String schema =
      "snowid_mp_" + ProcessHandle.current().pid() + "_" + System.nanoTime();

  @BeforeEach
  void createTheTable() throws Exception {
    sql("create schema " + schema);
    sql(
        "create table "
            + schema
            + ".payment (id bigint primary key, payer text not null, cents bigint not null)");
  }

  @AfterEach
  void dropTheSchema() throws Exception {
    sql("drop schema if exists " + schema + " cascade");
  }

  @Test
  void fourInstances_mixedNodeConfigurations_noDuplicateKeyAndNoSharedNodeValues(@TempDir Path dir)
      throws Exception {
    List<String> common =
        List.of(
            "spring.datasource.url=" + POSTGRES + "?currentSchema=" + schema,
            "spring.datasource.username=postgres",
            "snowid.node=datasource?create=true",
            "snowid.lease.ttl=5s",
            "snowid.lease.max-ttl=5s",
            "snowid.lease.max-skew=1s");
    List<String> fixed = new ArrayList<>(common);
    fixed.add("snowid.fields.datacenter=" + FIXED_DATACENTER);
    List<String> names = List.of("fixed", "leased1", "leased2", "leased3");
    List<LedgerJvm> jvms = new ArrayList<>();
    Map<String, String> ready = new LinkedHashMap<>();
    try {
      for (String name : names) {
        jvms.add(LedgerJvm.start(dir, name, ROWS, name.equals("fixed") ? fixed : common));
      }
      for (int i = 0; i < jvms.size(); i++) {
        ready.put(names.get(i), jvms.get(i).awaitReady()); // every one holds its lease
      }
      for (LedgerJvm j : jvms) {
        j.go();
      }
      for (LedgerJvm j : jvms) {
        j.awaitInserted(ROWS);
      }
      for (LedgerJvm j : jvms) {
        j.stop();
      }
    } finally {
      jvms.forEach(LedgerJvm::close);
    }

    assertThat(count("count(*)")).isEqualTo(4L * ROWS);
    assertThat(count("count(distinct id)")).isEqualTo(4L * ROWS);
    Map<String, Set<String>> nodes = nodeValuesByPayer();
    assertThat(nodes).as("ready: %s", ready).containsOnlyKeys(names);
    assertThat(nodes.get("fixed"))
        .allMatch(n -> n.startsWith("datacenter=" + FIXED_DATACENTER + ","));
    for (int i = 0; i < names.size(); i++) {
      for (int j = i + 1; j < names.size(); j++) {
        assertThat(nodes.get(names.get(i)))
            .as("node values of %s and %s (ready: %s)", names.get(i), names.get(j), ready)
            .doesNotContainAnyElementsOf(nodes.get(names.get(j)));
      }
    }
  }

  /** Each payer's (datacenter, worker) pairs, decoded from the ids it inserted. */
  private Map<String, Set<String>> nodeValuesByPayer() throws Exception {
    Map<String, Set<String>> nodes = new LinkedHashMap<>();
    Layout twitter = Layout.twitter();
    try (Connection c = DriverManager.getConnection(POSTGRES, "postgres", "");
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("select id, payer from " + schema + ".payment")) {
      while (r.next()) {
        DecodedId d = twitter.decode(r.getLong(1));
        nodes
            .computeIfAbsent(r.getString(2), p -> new TreeSet<>())
            .add("datacenter=" + d.field("datacenter") + ",worker=" + d.field("worker"));
      }
    }
    return nodes;
  }

  private long count(String what) throws Exception {
    try (Connection c = DriverManager.getConnection(POSTGRES, "postgres", "");
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("select " + what + " from " + schema + ".payment")) {
      r.next();
      return r.getLong(1);
    }
  }

  private static void sql(String statement) throws Exception {
    try (Connection c = DriverManager.getConnection(POSTGRES, "postgres", "");
        Statement s = c.createStatement()) {
      s.execute(statement);
    }
  }
}
