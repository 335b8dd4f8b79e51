package io.snowid.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.snowid.ClockMovedBackwardsException;
import io.snowid.Layout;
import io.snowid.Snowflake;
import io.snowid.TimeSource;
import io.snowid.node.NodeLease;
import io.snowid.testkit.ManualClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lease holder under wall-clock steps: its deadline, its renewals and its skew check. */
class LeaseHolderRegressionTest {
  private final ManualClock clock = ManualClock.create();
  private final TimeSource time = TimeSource.wallClock(clock);

  private NodeLease lease(LeaseCoordinator coordinator, String options) {
    return LeaseCoordinators.lease(
        coordinator,
        LeaseOptions.parse("memory?namespace=regression&" + options, Duration.ofSeconds(10)),
        Layout.twitter(),
        Map.of("datacenter", 1L),
        time);
  }

  private static void awaitRenewals(NodeLease lease, long atLeast) {
    await().until(() -> lease.status().renewals() >= atLeast);
  }

  // A release that fails leaves the lease to its expiry: the status says so, not "released"
  // (snowid serve printed "node released" after one).
  @Test
  void close_releaseFails_statusSaysTheLeaseEndsByItselfInsteadOfReleased() {
    MemoryCoordinator coordinator = new MemoryCoordinator();
    NodeLease lease = lease(coordinator, "ttl=10s");
    coordinator.failReleases(true);

    lease.close();

    assertThat(lease.status().held()).isFalse();
    assertThat(lease.status().detail())
        .isEqualTo(
            "not released (memory: release refused by the test): the lease ends by itself at its"
                + " expiry");
  }

  @Test
  void close_releaseSucceeds_statusSaysReleased() {
    NodeLease lease = lease(new MemoryCoordinator(), "ttl=10s");

    lease.close();

    assertThat(lease.status().detail()).isEqualTo("released");
  }

  // A renewal after a step back of the wall clock never moves the deadline back below the one
  // already confirmed, so the generator never stops short of IDs it has already reserved.
  @Test
  void renew_afterTheWallClockSteppedBack_neverMovesTheDeadlineBack() {
    try (NodeLease lease = lease(new MemoryCoordinator(), "ttl=10s&renew=20ms")) {
      Instant before = lease.status().validUntil();
      clock.stepBack(Duration.ofSeconds(5));
      long renewals = lease.status().renewals();

      awaitRenewals(lease, renewals + 2); // at least one sent wholly after the step

      assertThat(lease.status().validUntil()).isAfterOrEqualTo(before);
      assertThat(lease.status().held()).isTrue();
    }
  }

  // A forward step of the wall clock larger than the lease time left renews at once: a healthy
  // lease is not fenced for about a third of its ttl, until the next scheduled renewal.
  @Test
  void nextId_wallClockStepsForwardBeyondTheLeaseTimeLeft_renewsAtOnceInsteadOfFencing() {
    MemoryCoordinator coordinator = new MemoryCoordinator();
    try (NodeLease lease = lease(coordinator, "ttl=10s")) {
      Snowflake gen = Snowflake.builder().lease(lease).timeSource(time).build();
      long before = gen.nextId();
      clock.set(clock.wallInstant().plusSeconds(20));

      long id = gen.nextId();

      assertThat(id).isGreaterThan(before);
      assertThat(gen.layout().decode(id).timestampMillis())
          .isEqualTo(clock.wallInstant().toEpochMilli());
      assertThat(coordinator.renewCalls()).isPositive();
      assertThat(lease.status().held()).isTrue();
    }
  }

  @Test
  void nextId_deadlinePassedAndTheRenewalFails_throwsLeaseLostAfterTryingOnce() {
    MemoryCoordinator coordinator = new MemoryCoordinator();
    try (NodeLease lease = lease(coordinator, "ttl=10s")) {
      Snowflake gen = Snowflake.builder().lease(lease).timeSource(time).build();
      gen.nextId();
      coordinator.failRenewals(true);
      clock.set(clock.wallInstant().plusSeconds(20));

      assertThatThrownBy(gen::nextId)
          .isInstanceOf(LeaseLostException.class)
          .hasMessageContaining("not renewed in time");
      assertThat(coordinator.renewCalls()).isPositive();
    }
  }

  // A step back of the wall clock during a renewal is not clock skew for a coordinator without a
  // clock of its own (file:), which answers with the holder's clock: the "skew" is only the step
  // between two readings of the same clock, and must not fence a healthy lease.
  @Test
  void renew_wallClockStepsBackDuringTheCallToACoordinatorWithoutAClock_staysHeld() {
    MemoryCoordinator coordinator =
        new MemoryCoordinator().whileNextRenewal(() -> clock.stepBack(Duration.ofSeconds(5)));
    try (NodeLease lease = lease(coordinator, "ttl=10s&renew=20ms")) {
      await().until(() -> lease.status().renewals() + lease.status().renewalFailures() >= 1);

      assertThat(lease.status().renewalFailures()).isZero();
      assertThat(lease.status().detail()).isEqualTo("held");
      assertThat(lease.status().held()).isTrue();
    }
  }

  @Test
  void acquire_wallClockStepsBackDuringTheCallToACoordinatorWithoutAClock_succeeds() {
    MemoryCoordinator coordinator =
        new MemoryCoordinator().whileNextAcquisition(() -> clock.stepBack(Duration.ofSeconds(5)));

    try (NodeLease lease = lease(coordinator, "ttl=10s")) {
      assertThat(lease.status().held()).isTrue();
    }
  }

  // The refusal of a clock behind the id's high-water mark by more than startWait says its
  // durations as the options are written, not as Duration.toString (PT41S).
  @Test
  void acquire_clockBehindTheHighWaterMarkBeyondStartWait_refusalSaysDurationsInWords() {
    MemoryCoordinator coordinator = new MemoryCoordinator();
    clock.advance(Duration.ofMinutes(5));
    lease(coordinator, "ttl=10s").close(); // leaves a high-water mark ~5 min ahead of what follows
    clock.stepBack(Duration.ofMinutes(5));

    assertThatThrownBy(() -> lease(coordinator, "ttl=10s"))
        .isInstanceOf(ClockMovedBackwardsException.class)
        .hasMessageContaining("by more than startWait 41s")
        .hasMessageContaining("maxTtl + 2 × maxSkew + 1s = 41s)")
        .hasMessageNotContaining("PT");
  }

  // On file:, a start that far behind the id's mark is refused before the coordinator writes the
  // id's record, with the same words: the record stays its last holder's.
  @Test
  void acquire_onFileClockBehindTheHighWaterMarkBeyondStartWait_refusedLeavingTheRecord(
      @TempDir Path dir) throws Exception {
    ManualClock wall = ManualClock.at(Instant.now());
    TimeSource source = TimeSource.wallClock(wall);
    LeaseOptions options =
        LeaseOptions.parse("file:" + dir + "?namespace=regression&ttl=10s", Duration.ofSeconds(10));
    try (LeaseCoordinator coordinator = LeaseCoordinators.open(options.base())) {
      wall.advance(Duration.ofMinutes(5));
      LeaseCoordinators.lease(
              coordinator, options, Layout.twitter(), Map.of("datacenter", 1L), source)
          .close();
      wall.stepBack(Duration.ofMinutes(5));
      Path record;
      try (var files = Files.walk(dir)) {
        record = files.filter(f -> f.toString().endsWith(".lease")).findFirst().orElseThrow();
      }
      String before = Files.readString(record);

      assertThatThrownBy(
              () ->
                  LeaseCoordinators.lease(
                      coordinator, options, Layout.twitter(), Map.of("datacenter", 1L), source))
          .isInstanceOf(ClockMovedBackwardsException.class)
          .hasMessageContaining("by more than startWait 41s");
      assertThat(Files.readString(record)).as("the id's record").isEqualTo(before);
    }
  }
}
