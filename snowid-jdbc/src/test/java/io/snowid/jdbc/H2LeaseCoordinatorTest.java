package io.snowid.jdbc;

import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseCoordinators;
import io.snowid.testkit.LeaseCoordinatorContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The JDBC backend passes the contract every coordinator passes, on an embedded H2 (in memory, in
 * this JVM), opened by URI through {@link java.util.ServiceLoader}. The class has a lease table of
 * its own (each test a namespace of its own), put in service first and dropped afterwards.
 */
class H2LeaseCoordinatorTest extends LeaseCoordinatorContract {
  private static final TestDatabase DB = TestDatabase.H2;
  private static final String TABLE = TestDatabase.uniqueTable();

  @BeforeAll
  static void createTable() {
    DB.createInService(TABLE);
  }

  @Override
  protected LeaseCoordinator newCoordinator() {
    return LeaseCoordinators.open(DB.uri(TABLE, ""));
  }

  @Override
  protected void deleteNamespace(String namespace) {
    DB.execute("DELETE FROM " + TABLE + " WHERE namespace = '" + namespace + "'");
  }

  /** A process killed by SIGKILL stops renewing and never releases: closing does just that. */
  @Override
  protected void crash(LeaseCoordinator coordinator) {
    coordinator.close();
  }

  @AfterAll
  static void dropTable() {
    DB.drop(TABLE);
  }
}
