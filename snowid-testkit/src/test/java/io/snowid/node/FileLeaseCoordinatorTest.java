package io.snowid.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.testkit.LeaseCoordinatorContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file: coordinator passes the contract every coordinator must pass. */
class FileLeaseCoordinatorTest extends LeaseCoordinatorContract {
  @TempDir Path dir;

  @Override
  protected LeaseCoordinator newCoordinator() {
    return LeaseCoordinators.open("file:" + dir);
  }

  // Review finding 8: a damaged record (torn write, garbage) must not be read as "no high-water
  // mark": its id is skipped.
  @Test
  void acquire_damagedLeaseRecord_skipsThatId() throws Exception {
    LeaseCoordinator c = newCoordinator();
    Lease first = c.acquire(namespace, 4, "a", Duration.ofSeconds(2), 1_000, 5_000);
    c.release(first, 2_000);
    Path file = dir.resolve(namespace).resolve(first.nodeId() + ".lease");
    String record = Files.readString(file);
    assertThat(record).contains("highWater=2000").hasSize(256);
    Files.writeString(file, record.replace("highWater=2000", "highWater=1000"));

    Lease next = c.acquire(namespace, 4, "b", Duration.ofSeconds(2), 1_000, 5_000);

    assertThat(next.nodeId()).isNotEqualTo(first.nodeId());
    c.close();
  }

  @Test
  void release_rewritesTheRecordInPlaceAtFixedSize() throws Exception {
    LeaseCoordinator c = newCoordinator();
    Lease l = c.acquire(namespace, 1, "a", Duration.ofSeconds(2), 1_000, 5_000);
    Path file = dir.resolve(namespace).resolve("0.lease");
    long sizeHeld = Files.size(file);
    c.release(l, 4_000);
    assertThat(Files.size(file)).isEqualTo(sizeHeld).isEqualTo(256);
    assertThat(c.acquire(namespace, 1, "a", Duration.ofSeconds(2), 1_000, 5_000).highWaterMillis())
        .isEqualTo(4_000);
    c.close();
  }

  @Override
  protected void crash(LeaseCoordinator coordinator) {
    // closing without release drops the OS locks, as the death of the process would
    coordinator.close();
  }
}
