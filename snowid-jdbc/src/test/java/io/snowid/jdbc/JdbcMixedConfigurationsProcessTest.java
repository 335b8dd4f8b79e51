package io.snowid.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.testkit.IssuerJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Configurations that look different but cover the same node values, on PostgreSQL and MariaDB with
 * one URI (one table) and namespace: real processes that each issue millions of IDs at once must
 * get different node values, never issue one ID twice; a configuration that names a field twice is
 * refused before it writes anything.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
@Tag("integration")
class JdbcMixedConfigurationsProcessTest {
  /** IDs per process: 5 million per pair. */
  private static final long COUNT = 2_500_000;

  @TempDir Path dir;
  private final String table = TestDatabase.uniqueTable();
  private final List<IssuerJvm> started = new ArrayList<>();
  private Runnable drop = () -> {};

  @AfterEach
  void cleanUp() {
    started.forEach(IssuerJvm::close);
    drop.run();
  }

  private String uri(TestDatabase db) {
    db.createInService(table);
    drop = () -> db.drop(table);
    return db.uri(table, "&namespace=orders");
  }

  private IssuerJvm start(IssuerJvm.Launch launch, String source) throws IOException {
    IssuerJvm p = launch.start(source);
    started.add(p);
    return p;
  }

  /** {@code SNOWID_DATACENTER_ID=0} (the worker leased) beside a process that leases both. */
  @ParameterizedTest
  @EnumSource(
      value = TestDatabase.class,
      names = {"POSTGRESQL", "MARIADB"})
  void datacenterFromTheEnvironment_besideAProcessThatLeasesBothFields_apart(TestDatabase db)
      throws Exception {
    String uri = uri(db);
    IssuerJvm a = start(IssuerJvm.in(dir, "a").count(COUNT).env("SNOWID_DATACENTER_ID", "0"), uri);
    IssuerJvm b = start(IssuerJvm.in(dir, "b").count(COUNT), uri);
    a.awaitReady();
    b.awaitReady();

    System.out.println(
        db + ": datacenter fixed / none: " + IssuerJvm.issueTogether(a, b).assertApart());
  }

  @ParameterizedTest
  @EnumSource(
      value = TestDatabase.class,
      names = {"POSTGRESQL", "MARIADB"})
  void defaultBesideFieldsInAnotherOrder_apart(TestDatabase db) throws Exception {
    String uri = uri(db);
    IssuerJvm a = start(IssuerJvm.in(dir, "a").count(COUNT), uri);
    IssuerJvm b = start(IssuerJvm.in(dir, "b").count(COUNT), uri + "&fields=worker,datacenter");
    a.awaitReady();
    b.awaitReady();

    System.out.println(
        db
            + ": default / fields=worker,datacenter: "
            + IssuerJvm.issueTogether(a, b).assertApart());
  }

  /**
   * A field named twice (the datacenter from the environment, so that nothing else is missing) is
   * refused before anything is written to the table.
   */
  @ParameterizedTest
  @EnumSource(
      value = TestDatabase.class,
      names = {"POSTGRESQL", "MARIADB"})
  void fieldNamedTwice_refusedNamingFields_nothingLeased(TestDatabase db) throws Exception {
    String uri = uri(db);
    IssuerJvm a = start(IssuerJvm.in(dir, "a"), uri);
    a.awaitReady();
    List<String> before = rows(db);

    IssuerJvm b =
        start(
            IssuerJvm.in(dir, "b").env("SNOWID_DATACENTER_ID", "0"), uri + "&fields=worker,worker");
    String refusal = b.awaitRefused();
    System.out.println(db + ": fields=worker,worker: " + refusal);

    assertThat(refusal)
        .startsWith("InvalidSettingException: ")
        .contains("fields", "worker,worker", "twice");
    assertThat(rows(db)).as("rows of the table").isEqualTo(before);
    a.stop();
  }

  /** Each row's namespace, node id and holder. */
  private List<String> rows(TestDatabase db) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT namespace, node_id, instance FROM "
                    + table
                    + " ORDER BY namespace, node_id")) {
      while (r.next()) {
        rows.add(r.getString(1) + " " + r.getLong(2) + " " + r.getString(3));
      }
    }
    return rows;
  }
}
