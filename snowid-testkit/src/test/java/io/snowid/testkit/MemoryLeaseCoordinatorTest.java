package io.snowid.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseCoordinators;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The in-memory backend passes the contract every coordinator passes, opened by URI through {@link
 * java.util.ServiceLoader} like any backend module.
 */
class MemoryLeaseCoordinatorTest extends LeaseCoordinatorContract {
  private final String uri = "memory:contract-" + UUID.randomUUID();

  @Override
  protected LeaseCoordinator newCoordinator() {
    return LeaseCoordinators.open(uri);
  }

  @Override
  protected void crash(LeaseCoordinator coordinator) {
    ((MemoryLeaseCoordinator) coordinator).crash();
  }

  /**
   * A {@code memory:} registry is the holders' own JVM heap: nothing outside them can delete one
   * namespace of it, so there is nothing to delete (the newcomer finds the holder's id held).
   */
  @Override
  protected void deleteNamespace(String namespace) {}

  @Test
  void open_memoryUri_isFoundThroughTheServiceLoader() {
    assertThat(LeaseCoordinators.provider(uri)).isInstanceOf(MemoryLeaseProvider.class);
    try (LeaseCoordinator c = LeaseCoordinators.open(uri)) {
      assertThat(c.describe()).isEqualTo(uri);
    }
  }
}
