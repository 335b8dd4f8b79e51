package io.snowid.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.Layout;
import io.snowid.Snowflake;
import io.snowid.TimeSource;
import io.snowid.node.NodeLease;
import io.snowid.testkit.ManualClock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * RELIABILITY.md, finding 2: a generator on the wall clock is fenced in real time too, not only by
 * the times its IDs carry, so after a step back of its clock it does not go on issuing after the
 * lease's deadline in real time, when the registry may already have given its node values to
 * another process; and one that stopped at its deadline does not issue again once a step back puts
 * its clock before it.
 *
 * <p>Lease time 10 s, so the margin is 2 s and a grant runs 8 s from the request that the
 * coordinator confirmed, on both clocks. The manual clock's monotonic clock is real time; its wall
 * clock is what steps. Renewals are scheduled 5 s apart in real time (the test is over long before)
 * and fail on demand.
 */
class LeaseRealTimeFenceRegressionTest {
  private static final Duration GRANT = Duration.ofSeconds(8); // ttl less the margin
  private static final Duration MS = Duration.ofMillis(1);

  private final ManualClock clock = ManualClock.create();
  private final TimeSource time = TimeSource.wallClock(clock);
  private final MemoryCoordinator coordinator = new MemoryCoordinator();

  private NodeLease lease() {
    return LeaseCoordinators.lease(
        coordinator,
        LeaseOptions.parse("memory?namespace=realtime&ttl=10s&renew=5s", Duration.ofSeconds(10)),
        Layout.twitter(),
        Map.of("datacenter", 1L),
        time);
  }

  private Snowflake generator(NodeLease lease) {
    return Snowflake.builder().lease(lease).timeSource(time).build();
  }

  @Test
  void nextId_wallClockSteppedBackAndLeaseNotRenewed_stopsAtTheRealDeadline() {
    try (NodeLease lease = lease()) {
      Snowflake gen = generator(lease);
      gen.nextId();
      coordinator.failRenewals(true);
      clock.stepBack(Duration.ofSeconds(5));
      clock.advance(GRANT.minus(MS));
      long last = gen.nextId(); // 1 ms before the deadline in real time: still held

      clock.advance(MS); // the deadline in real time; by the wall clock 5 s are left

      assertThat(gen.tryNextId()).isEqualTo(Snowflake.NO_ID);
      assertThatThrownBy(gen::nextId)
          .isInstanceOf(LeaseLostException.class)
          .hasMessageContaining("not renewed by its deadline in real time")
          .hasMessageContaining("(it stepped back)");
      assertThat(gen.nodeStatus().held()).isFalse();
      assertThat(gen.nodeStatus().detail()).contains("deadline in real time");
      assertThat(last).isPositive();
      assertThat(coordinator.renewCalls()).isPositive(); // asked once for a renewal, in vain
    }
  }

  @Test
  void nextId_stoppedAtTheDeadlineThenTheWallClockStepsBack_doesNotIssueAgain() {
    try (NodeLease lease = lease()) {
      Snowflake gen = generator(lease);
      gen.nextId();
      coordinator.failRenewals(true);
      clock.advance(GRANT);
      assertThatThrownBy(gen::nextId).isInstanceOf(LeaseLostException.class);

      clock.stepBack(Duration.ofSeconds(3)); // the wall clock is before the deadline again

      assertThat(gen.tryNextId()).isEqualTo(Snowflake.NO_ID);
      assertThatThrownBy(gen::nextId).isInstanceOf(LeaseLostException.class);
      clock.advance(Duration.ofSeconds(1));
      assertThatThrownBy(gen::nextId).isInstanceOf(LeaseLostException.class);
    }
  }

  /**
   * With a lead, a step back no larger than the lead leaves the generator ahead of its clock, so it
   * never enters a time unit "fresh"; the fast path checks the real deadline there too, or it would
   * go on issuing, unit after unit, for up to the step after the registry's expiry (RELIABILITY.md,
   * finding 5).
   */
  @Test
  void nextId_wallClockSteppedBackWithinTheLeadAfterTheRealDeadline_doesNotIssue() {
    try (NodeLease lease = lease()) {
      Snowflake gen =
          Snowflake.builder().lease(lease).timeSource(time).maxLead(Duration.ofSeconds(5)).build();
      gen.nextId();
      coordinator.failRenewals(true);
      clock.advance(GRANT.minus(MS));
      long last = gen.nextId(); // 1 ms before the deadline in real time
      clock.stepBack(Duration.ofSeconds(3)); // within the lead: the generator is now ahead
      clock.advance(MS); // the deadline in real time

      assertThat(gen.tryNextId()).isEqualTo(Snowflake.NO_ID);
      assertThatThrownBy(gen::nextId)
          .isInstanceOf(LeaseLostException.class)
          .hasMessageContaining("not renewed by its deadline in real time");
      assertThat(last).isPositive();
    }
  }

  /**
   * The unit last entered before the deadline, read again by the clock after a step back with no
   * call in between, is not issued on, however late: the fast path checks the deadline on every
   * call, not only where it enters a unit or runs ahead of the clock (RELIABILITY.md, finding 6).
   */
  @Test
  void tryNextId_idleThroughAStepBackIntoTheUnitLastEnteredAfterTheRealDeadline_doesNotIssue() {
    try (NodeLease lease = lease()) {
      Snowflake gen = generator(lease);
      gen.nextId();
      coordinator.failRenewals(true);
      clock.advance(GRANT.minus(MS));
      long last = gen.nextId(); // enters the unit 1 ms before the deadline in real time
      clock.stepBack(Duration.ofSeconds(3));
      clock.advance(Duration.ofSeconds(3)); // idle: the clock reads that unit again, 3 s late

      assertThat(gen.tryNextId()).isEqualTo(Snowflake.NO_ID);
      assertThatThrownBy(gen::nextId)
          .isInstanceOf(LeaseLostException.class)
          .hasMessageContaining("not renewed by its deadline in real time");
      assertThat(last).isPositive();
    }
  }

  // The fast path checks the real deadline where it enters a time unit; a step back that makes the
  // clock read the unit last issued again, after the deadline, must not reopen that unit.
  @Test
  void nextId_wallClockStepsBackIntoTheUnitLastIssuedAfterTheRealDeadline_doesNotIssue() {
    try (NodeLease lease = lease()) {
      Snowflake gen = generator(lease);
      gen.nextId();
      coordinator.failRenewals(true);
      clock.advance(GRANT.minus(MS));
      gen.nextId(); // the last unit entered before the deadline, its sequence mostly unused
      clock.advance(Duration.ofMillis(2));
      assertThatThrownBy(gen::nextId).isInstanceOf(LeaseLostException.class);

      clock.stepBack(Duration.ofMillis(2)); // reads that unit again

      assertThat(gen.tryNextId()).isEqualTo(Snowflake.NO_ID);
      assertThatThrownBy(gen::nextId)
          .isInstanceOf(LeaseLostException.class)
          .hasMessageContaining("not renewed by its deadline in real time");
    }
  }

  @Test
  void nextId_wallClockSteppedBackAndTheRealDeadlinePassesWithTheLeaseHealthy_renewsAndIssues() {
    try (NodeLease lease = lease()) {
      Snowflake gen = generator(lease);
      long first = gen.nextId();
      clock.stepBack(Duration.ofSeconds(5));
      clock.advance(GRANT.plusSeconds(1)); // past the real deadline: a renewal moves it

      long wall = clock.wallInstant().toEpochMilli();
      long id = gen.nextId();
      clock.advance(GRANT.minus(MS)); // within the renewed grant, counted from its request
      long later = gen.nextId();

      assertThat(coordinator.renewCalls()).isPositive();
      assertThat(gen.layout().decode(id).timestampMillis()).isEqualTo(wall);
      assertThat(later).isGreaterThan(id);
      assertThat(first).isPositive();
      assertThat(gen.nodeStatus().held()).isTrue();
    }
  }

  /**
   * The default source needs no real-time check: it does not follow the step back, and while it
   * reads ahead of the wall clock it runs at 0.9 of real time (RELIABILITY.md, finding 4), so it
   * reaches the deadline in its own time after at most 8 s / 0.9 = 8.9 s: before the registry's
   * expiry, 10 s after the request.
   */
  @Test
  void nextId_monotonicSourceSlewingAfterAWallClockStepBack_isFencedByItsOwnTimeBeforeTheExpiry() {
    TimeSource monotonic = TimeSource.monotonic(clock);
    try (NodeLease lease =
        LeaseCoordinators.lease(
            coordinator,
            LeaseOptions.parse(
                "memory?namespace=realtime&ttl=10s&renew=5s", Duration.ofSeconds(10)),
            Layout.twitter(),
            Map.of("datacenter", 1L),
            monotonic)) {
      Snowflake gen = Snowflake.builder().lease(lease).timeSource(monotonic).build();
      gen.nextId();
      coordinator.failRenewals(true);
      clock.stepBack(Duration.ofSeconds(5)); // not followed: slewed away
      clock.advance(GRANT.minus(MS));
      gen.nextId(); // its resync sees the wall clock 5 s behind: the slew starts here

      clock.advance(Duration.ofSeconds(2)); // 1 ms before the expiry; 1.8 s of the source's time

      assertThatThrownBy(gen::nextId)
          .isInstanceOf(LeaseLostException.class)
          .hasMessageContaining("not renewed in time");
    }
  }
}
