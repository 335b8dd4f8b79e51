package io.snowid.jdbc;

import io.snowid.testkit.HolderFleet;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
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
  @TempDir Path dir;
  private final String table = TestDatabase.uniqueTable();
  private Server h2;
  private Runnable drop = () -> {};

  @AfterEach
  void cleanUp() {
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
    HolderFleet.check(uri(db), dir, 8, Duration.ofSeconds(2));
  }
}
