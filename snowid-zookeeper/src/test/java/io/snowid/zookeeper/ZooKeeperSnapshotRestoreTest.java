package io.snowid.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseLimits;
import io.snowid.lease.LeaseTakenException;
import io.snowid.lease.LeaseTerms;
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

        String why = renewUntilTaken(holder, lease, Duration.ofSeconds(60));
        Lease again =
            holder.acquire(
                new AcquireRequest("ns", 4, 0, 0, "holder", terms(), LeaseLimits.DEFAULT));

        // the renewal or the acquisition finds the restore; the other waits for the loss recorded
        assertThat(why + " / " + again.startReason())
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

  // The ensemble's zxid stays below the one the coordinator had confirmed until new writes pass
  // it: each acquisition found the restore again and moved lostAt on (the 600 s ZooKeeper run:
  // a holder whose next session ended too waited a whole loss wait more, 6.4 s each time).
  @Test
  void acquire_afterTheCoordinatorRecordedARestore_waitsForThatLossNotANewOne() throws Exception {
    try (PrivateZooKeeper server = PrivateZooKeeper.start(dir.resolve("zk"))) {
      String root = "/again";
      TestZooKeeper.putInService(server.connect(), root);
      String uri = "zookeeper://" + server.connect() + root;
      try (ZooKeeperLeaseCoordinator holder = ZooKeeperLeaseCoordinator.open(uri)) {
        Lease lease =
            holder.acquire(
                new AcquireRequest("ns", 4, 0, 0, "holder", terms(), LeaseLimits.DEFAULT));
        server.copyDataTo(dir.resolve("copy"));
        for (int i = 0; i < 50; i++) {
          lease = holder.renew(lease, terms());
        }
        server.stop();
        server.restoreDataFrom(dir.resolve("copy"));
        server.start();
        String why = renewUntilTaken(holder, lease, Duration.ofSeconds(60));
        Lease first =
            holder.acquire(
                new AcquireRequest("ns", 4, 0, 0, "holder", terms(), LeaseLimits.DEFAULT));
        assertThat(why + " / " + first.startReason()).contains("transaction id went back");

        Thread.sleep(1_500);
        Lease second =
            holder.acquire(
                new AcquireRequest("ns", 4, 0, 0, "second", terms(), LeaseLimits.DEFAULT));

        assertThat(second.startReason())
            .doesNotContain("transaction id went back")
            .contains("lost the chroot's state");
        // the first finding's lostUntil, not one 1.5 s later
        assertThat(second.highWaterMillis()).isLessThan(first.highWaterMillis() + 1_000);
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
