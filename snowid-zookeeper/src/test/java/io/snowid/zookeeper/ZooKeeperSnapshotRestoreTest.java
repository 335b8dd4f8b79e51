package io.snowid.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseLimits;
import io.snowid.lease.LeaseTakenException;
import io.snowid.lease.LeaseTerms;
import io.snowid.lease.RegistryUnavailableException;
import io.snowid.node.NodeIdUnavailableException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A ZooKeeper restored from an older copy of its data: the ensemble's transaction ids go back. The
 * holder's renewal finds the zxid below the one it last confirmed, fences and records the loss, and
 * a newcomer (which sees a state written moments ago) still starts after maxTtl + maxSkew + 1 s. On
 * a private server: stopped, its data replaced by the copy, started.
 */
@Tag("integration")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ZooKeeperSnapshotRestoreTest {
  @TempDir Path dir;

  private static final long TTL = 4_000;

  private static LeaseTerms terms() {
    long now = System.currentTimeMillis();
    return new LeaseTerms(Duration.ofMillis(TTL), now, now + TTL);
  }

  @Test
  void renew_afterARestoreOfAnOlderCopy_fencesNamingTheZxidAndNewcomersWaitOutTheLoss()
      throws Exception {
    try (PrivateZooKeeper server = PrivateZooKeeper.start(dir.resolve("zk"))) {
      String root = "/restore";
      TestZooKeeper.putInService(server.connect(), root);
      String uri = "zookeeper://" + server.connect() + root;
      try (ZooKeeperLeaseCoordinator holder = ZooKeeperLeaseCoordinator.open(uri)) {
        Lease lease =
            holder.acquire(
                new AcquireRequest("ns", 4, 0, 0, "holder", terms(), LeaseLimits.DEFAULT));
        server.copyDataTo(dir.resolve("copy"));
        for (int i = 0; i < 50; i++) { // the ensemble goes on: its zxid passes the copy's
          lease = holder.renew(lease, terms());
        }
        server.stop();
        server.restoreDataFrom(dir.resolve("copy"));
        server.start();

        renewUntilTaken(holder, lease, Duration.ofSeconds(60));
        Lease again =
            holder.acquire(
                new AcquireRequest("ns", 4, 0, 0, "holder", terms(), LeaseLimits.DEFAULT));

        assertThat(again.startReason())
            .contains("transaction id went back")
            .contains("older snapshot");
        assertThat(again.highWaterMillis())
            .isGreaterThanOrEqualTo(
                again.coordinatorNowMillis()
                    + LeaseLimits.DEFAULT.maxTtl().plus(LeaseLimits.DEFAULT.maxSkew()).toMillis());
        try (ZooKeeperLeaseCoordinator newcomer = ZooKeeperLeaseCoordinator.open(uri)) {
          long now = System.currentTimeMillis();
          Lease next =
              newcomer.acquire(
                  new AcquireRequest("ns", 4, 0, 0, "newcomer", terms(), LeaseLimits.DEFAULT));
          assertThat(next.startReason()).contains("lost the chroot's state");
          assertThat(next.highWaterMillis())
              .isGreaterThanOrEqualTo(
                  now
                      + LeaseLimits.DEFAULT.maxTtl().plus(LeaseLimits.DEFAULT.maxSkew()).toMillis()
                      - 2_000);
        }
      }
    }
  }

  // After a first restore was found and recorded, a second restore to a later backup (whose zxid
  // lies above what the new history reached) erases that loss's record and the new holders'
  // marks: a coordinator that went on from the new history's zxid would not find it.
  @Test
  void acquire_afterASecondRestoreToALaterBackup_findsItToo() throws Exception {
    try (PrivateZooKeeper server = PrivateZooKeeper.start(dir.resolve("zk"))) {
      String root = "/twice";
      TestZooKeeper.putInService(server.connect(), root);
      String uri = "zookeeper://" + server.connect() + root;
      try (ZooKeeperLeaseCoordinator holder = ZooKeeperLeaseCoordinator.open(uri)) {
        Lease lease =
            holder.acquire(
                new AcquireRequest("ns", 4, 0, 0, "holder", terms(), LeaseLimits.DEFAULT));
        server.copyDataTo(dir.resolve("a"));
        for (int i = 0; i < 50; i++) {
          lease = holder.renew(lease, terms());
        }
        server.copyDataTo(dir.resolve("b"));
        for (int i = 0; i < 50; i++) {
          lease = holder.renew(lease, terms());
        }
        server.stop();
        server.restoreDataFrom(dir.resolve("a"));
        server.start();
        renewUntilTaken(holder, lease, Duration.ofSeconds(60));
        holder.acquire(new AcquireRequest("ns", 4, 0, 0, "holder", terms(), LeaseLimits.DEFAULT));
        server.stop();
        server.restoreDataFrom(dir.resolve("b"));
        server.start();

        long now = System.currentTimeMillis();
        Lease after = null;
        for (int attempt = 0; after == null; attempt++) {
          try {
            after =
                holder.acquire(
                    new AcquireRequest("ns", 4, 0, 0, "other", terms(), LeaseLimits.DEFAULT));
          } catch (RegistryUnavailableException e) {
            // its session ended with the restore: the next acquisition opens a new one
            assertThat(attempt).as("acquisitions failed: " + e.getMessage()).isLessThan(20);
            Thread.sleep(500);
          }
        }

        assertThat(after.startReason()).contains("transaction id went back");
        assertThat(after.highWaterMillis())
            .isGreaterThanOrEqualTo(
                now + LeaseLimits.DEFAULT.maxTtl().plus(LeaseLimits.DEFAULT.maxSkew()).toMillis());
      }
    }
  }

  /** Renews until the coordinator says the lease is not this holder's; its reason. */
  private static String renewUntilTaken(
      ZooKeeperLeaseCoordinator holder, Lease lease, Duration within) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (System.nanoTime() < deadline) {
      try {
        lease = holder.renew(lease, terms());
      } catch (LeaseTakenException e) {
        return e.getMessage();
      } catch (NodeIdUnavailableException e) {
        // the holder cannot reach the restored server yet (it refuses a client that saw later
        // zxids): the session is lost after its timeout, and the next renewal judges it
      }
      Thread.sleep(200);
    }
    throw new AssertionError("the lease was still renewed after " + within);
  }
}
