package io.snowid.node;

import io.snowid.testkit.LeaseCoordinatorContract;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The file: coordinator passes the contract every coordinator must pass. */
class FileLeaseCoordinatorTest extends LeaseCoordinatorContract {
  @TempDir Path dir;

  @Override
  protected LeaseCoordinator newCoordinator() {
    return LeaseCoordinators.open("file:" + dir);
  }

  @Override
  protected void crash(LeaseCoordinator coordinator) {
    // closing without release drops the OS locks, as the death of the process would
    coordinator.close();
  }
}
