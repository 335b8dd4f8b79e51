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
import java.time.Instant;
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
        restore(server, "copy");

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
        restore(server, "a");
        renewUntilTaken(holder, lease, Duration.ofSeconds(60));
        holder.acquire(new AcquireRequest("ns", 4, 0, 0, "holder", terms(), LeaseLimits.DEFAULT));
        restore(server, "b");

        long now = System.currentTimeMillis();
        Lease after = acquireOnceReachable(holder, "other");

        // the zxid lies below this process's highest, and the state lacks its record's node
        assertThat(after.startReason()).contains("ZooKeeper restored an older snapshot");
        assertThat(after.highWaterMillis())
            .isGreaterThanOrEqualTo(
                now + LeaseLimits.DEFAULT.maxTtl().plus(LeaseLimits.DEFAULT.maxSkew()).toMillis());
      }
    }
  }

  // The ensemble's zxid stays below the one the coordinator had confirmed until new writes pass
  // it: each acquisition found the restore again and moved lostAt on, and a holder whose next
  // session ended too waited a whole loss wait more each time.
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
        restore(server, "copy");
        String why = renewUntilTaken(holder, lease, Duration.ofSeconds(60));
        Lease first =
            holder.acquire(
                new AcquireRequest("ns", 4, 0, 0, "holder", terms(), LeaseLimits.DEFAULT));
        // its renewal or its acquisition found the restore and recorded the loss
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

  // Each process remembers the zxids its own writes were confirmed at: one that did not find the
  // restore itself (its holder was cut off meanwhile) found it again at its next acquisition and
  // waited a whole loss wait from then, though another process had recorded the loss already.
  @Test
  void acquire_ofAnotherProcessAfterTheRestoreWasRecorded_waitsForThatLossNotANewOne()
      throws Exception {
    try (PrivateZooKeeper server = PrivateZooKeeper.start(dir.resolve("zk"))) {
      String root = "/other";
      TestZooKeeper.putInService(server.connect(), root);
      String uri = "zookeeper://" + server.connect() + root;
      try (ZooKeeperLeaseCoordinator finder = ZooKeeperLeaseCoordinator.open(uri);
          ZooKeeperLeaseCoordinator other = ZooKeeperLeaseCoordinator.open(uri)) {
        Lease lease =
            finder.acquire(
                new AcquireRequest("ns", 4, 0, 0, "finder", terms(), LeaseLimits.DEFAULT));
        Lease others =
            other.acquire(new AcquireRequest("ns", 4, 0, 0, "other", terms(), LeaseLimits.DEFAULT));
        server.copyDataTo(dir.resolve("copy"));
        for (int i = 0; i < 50; i++) {
          lease = finder.renew(lease, terms());
          others = other.renew(others, terms());
        }
        Thread.sleep(LeaseLimits.DEFAULT.maxSkew().toMillis() + 500); // the last writes, then
        restore(server, "copy");
        String why = renewUntilTaken(finder, lease, Duration.ofSeconds(60));
        Lease first =
            finder.acquire(
                new AcquireRequest("ns", 4, 0, 0, "finder", terms(), LeaseLimits.DEFAULT));
        // its renewal or its acquisition found the restore and recorded the loss
        assertThat(why + " / " + first.startReason()).contains("transaction id went back");

        Thread.sleep(1_500);
        Lease later = acquireOnceReachable(other, "other");

        assertThat(later.startReason())
            .doesNotContain("transaction id went back")
            .contains("lost the chroot's state");
        assertThat(later.highWaterMillis()).isLessThan(first.highWaterMillis() + 1_000);
      }
    }
  }

  // A holder cut off while another process found the restore finds its own record gone back when
  // it renews: it recorded the loss anew, and newcomers waited a whole loss wait from then.
  @Test
  void renew_afterAnotherProcessRecordedTheRestore_leavesNewcomersItsLostUntil() throws Exception {
    try (PrivateZooKeeper server = PrivateZooKeeper.start(dir.resolve("zk"))) {
      String root = "/renewed";
      TestZooKeeper.putInService(server.connect(), root);
      String uri = "zookeeper://" + server.connect() + root;
      try (ZooKeeperLeaseCoordinator holder = ZooKeeperLeaseCoordinator.open(uri);
          ZooKeeperLeaseCoordinator finder = ZooKeeperLeaseCoordinator.open(uri)) {
        Lease lease =
            holder.acquire(
                new AcquireRequest("ns", 4, 0, 0, "holder", terms(), LeaseLimits.DEFAULT));
        Lease finders =
            finder.acquire(
                new AcquireRequest("ns", 4, 0, 0, "finder", terms(), LeaseLimits.DEFAULT));
        server.copyDataTo(dir.resolve("copy"));
        for (int i = 0; i < 50; i++) {
          lease = holder.renew(lease, terms());
          finders = finder.renew(finders, terms());
        }
        Thread.sleep(LeaseLimits.DEFAULT.maxSkew().toMillis() + 500);
        restore(server, "copy");
        Lease found = acquireOnceReachable(finder, "finder");
        assertThat(found.startReason()).contains("transaction id went back");

        Thread.sleep(1_500);
        String why = renewUntilTaken(holder, lease, Duration.ofSeconds(60));

        assertThat(why).contains("transaction id went back");
        Instant newcomersAfter =
            Instant.parse(why.substring(why.lastIndexOf("newcomers start after ") + 22));
        assertThat(newcomersAfter.toEpochMilli()).isLessThan(found.highWaterMillis() + 1_000);
      }
    }
  }

  /** Stops the server, puts the copy {@code name} in place of its data and starts it again. */
  private void restore(PrivateZooKeeper server, String name) {
    server.stop();
    server.restoreDataFrom(dir.resolve(name));
    server.start();
  }

  /**
   * Acquires an id for {@code instance}, again while the coordinator's session ended with the
   * restore (the next acquisition opens a new one).
   */
  private static Lease acquireOnceReachable(ZooKeeperLeaseCoordinator coordinator, String instance)
      throws InterruptedException {
    for (int attempt = 0; ; attempt++) {
      try {
        return coordinator.acquire(
            new AcquireRequest("ns", 4, 0, 0, instance, terms(), LeaseLimits.DEFAULT));
      } catch (RegistryUnavailableException e) {
        assertThat(attempt).as("acquisitions failed: " + e.getMessage()).isLessThan(20);
        Thread.sleep(500);
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
