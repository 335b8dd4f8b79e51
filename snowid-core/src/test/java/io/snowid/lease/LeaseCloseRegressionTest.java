package io.snowid.lease;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.Layout;
import io.snowid.Snowflake;
import io.snowid.TimeSource;
import io.snowid.node.NodeLease;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Closing a generator does not interrupt the renewal in flight (RELIABILITY.md, finding 3): on
 * {@code file:} an interrupted {@code FileChannel} closes itself, which drops the process's lock on
 * the lease file; the release would then find the lock gone and write no released record, and the
 * id would stay named by a live process until its lease expires.
 */
class LeaseCloseRegressionTest {
  @TempDir Path dir;

  /**
   * The file coordinator, with a renewal that can be held at its start: it waits (up to a second)
   * for an interrupt of its thread, then renews with the interrupt still set, as a renewal that was
   * writing the file when the interrupt came; a release waits until that renewal is done.
   */
  private static final class HeldRenewal implements LeaseCoordinator {
    private final LeaseCoordinator file;
    volatile boolean hold;
    final CountDownLatch renewing = new CountDownLatch(1);
    final CountDownLatch renewed = new CountDownLatch(1);

    HeldRenewal(LeaseCoordinator file) {
      this.file = file;
    }

    @Override
    public Lease acquire(AcquireRequest request) {
      return file.acquire(request);
    }

    @Override
    public Lease renew(Lease lease, LeaseTerms terms) {
      if (!hold) {
        return file.renew(lease, terms);
      }
      renewing.countDown();
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
      while (!Thread.currentThread().isInterrupted() && System.nanoTime() < end) {
        Thread.onSpinWait();
      }
      try {
        return file.renew(lease, terms);
      } finally {
        renewed.countDown();
      }
    }

    @Override
    public void release(Lease lease, long issuedUpToMillis) {
      try {
        renewed.await(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      file.release(lease, issuedUpToMillis);
    }

    @Override
    public boolean hasOwnClock() {
      return file.hasOwnClock();
    }

    @Override
    public LeaseListing list(String namespace) {
      return file.list(namespace);
    }

    @Override
    public void releaseAbandoned(String namespace, long nodeId) {
      file.releaseAbandoned(namespace, nodeId);
    }

    @Override
    public String describe() {
      return file.describe();
    }

    @Override
    public void close() {
      file.close();
    }
  }

  @Test
  void close_whileARenewalWritesTheLeaseFile_writesTheReleasedRecord() throws Exception {
    HeldRenewal coordinator = new HeldRenewal(LeaseCoordinators.open("file:" + dir));
    NodeLease lease =
        LeaseCoordinators.lease(
            coordinator,
            LeaseOptions.parse("file?namespace=close&ttl=2s&renew=50ms", Duration.ofSeconds(2)),
            Layout.twitter(),
            Map.of("datacenter", 1L),
            TimeSource.monotonic());
    Snowflake gen = Snowflake.builder().lease(lease).build();
    gen.nextId();
    coordinator.hold = true;
    assertThat(coordinator.renewing.await(10, TimeUnit.SECONDS)).isTrue();

    gen.close();
    lease.close();

    LeaseRecord record = onlyRecord();
    assertThat(record.isReleased()).as("the id's record after close: %s", record).isTrue();
  }

  private LeaseRecord onlyRecord() throws IOException, LeaseRecord.DamagedException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(dir)) {
      files = walk.filter(p -> p.toString().endsWith(".lease")).toList();
    }
    assertThat(files).hasSize(1);
    byte[] bytes = Files.readAllBytes(files.get(0));
    return LeaseRecord.parse(bytes, bytes.length);
  }
}
