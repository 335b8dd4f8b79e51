package io.snowid.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.testkit.HolderJvm;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.h2.tools.Server;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Eight JVMs lease node values from one namespace of one table and take IDs for a few seconds, on
 * each database (H2 as a server in this JVM, since an embedded one belongs to one process): each
 * gets node values of its own, and no ID appears twice.
 */
@Tag("integration")
class JdbcMultiProcessTest {
  private static final int JVMS = 8;
  @TempDir Path dir;
  private final String table = TestDatabase.uniqueTable();
  private final List<HolderJvm> holders = new ArrayList<>();
  private Server h2;
  private Runnable drop = () -> {};

  @AfterEach
  void cleanUp() {
    holders.forEach(HolderJvm::close);
    drop.run();
    if (h2 != null) {
      h2.stop();
    }
  }

  /** The URI the holders use: the shared server's, or that of an H2 server started here. */
  private String uri(TestDatabase db) throws SQLException {
    if (db != TestDatabase.H2) {
      db.createInService(table);
      drop = () -> db.drop(table);
      return db.uri(table, "&namespace=fleet&ttl=2s");
    }
    h2 = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
    String url = "jdbc:h2:tcp://127.0.0.1:" + h2.getPort() + "/mem:fleet;DB_CLOSE_DELAY=-1";
    JdbcLeaseCoordinator.open(url + "?table=" + table + "&create=true").close();
    // a new table: its first holders wait out a loss, maxTtl + 2 × maxSkew + 1 s = 5 s
    return url + "?table=" + table + "&namespace=fleet&ttl=2s&maxTtl=2s&maxSkew=1s";
  }

  @ParameterizedTest
  @EnumSource(TestDatabase.class)
  void nextId_eightJvmsOnOneNamespace_distinctNodesAndNoDuplicates(TestDatabase db)
      throws Exception {
    String uri = uri(db);
    for (int i = 0; i < JVMS; i++) {
      holders.add(HolderJvm.start(uri, dir, "holder-" + i));
    }
    List<String> nodes = new ArrayList<>();
    for (HolderJvm h : holders) {
      nodes.add(h.await("ready", 0, Duration.ofMinutes(2)).text());
    }
    assertThat(nodes).doesNotHaveDuplicates();

    Thread.sleep(2_000); // all eight issue at once for a while

    List<long[]> all = new ArrayList<>();
    for (HolderJvm h : holders) {
      h.stop();
      all.add(h.ids());
    }
    int total = 0;
    for (long[] ids : all) {
      long[] issued = Arrays.stream(ids).filter(id -> id >= 0).toArray();
      assertThat(issued.length).isGreaterThan(100);
      for (int i = 1; i < issued.length; i++) {
        assertThat(issued[i]).isGreaterThan(issued[i - 1]);
      }
      total += issued.length;
    }
    long[] merged =
        all.stream().flatMapToLong(Arrays::stream).filter(id -> id >= 0).sorted().toArray();
    assertThat(merged).hasSize(total);
    for (int i = 1; i < merged.length; i++) {
      assertThat(merged[i]).as("duplicate ID").isNotEqualTo(merged[i - 1]);
    }
  }
}
