package io.snowid.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.snowid.ClockPolicy;
import io.snowid.Layout;
import io.snowid.Snowflake;
import io.snowid.TimeSource;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseCoordinators;
import io.snowid.lease.LeaseLostException;
import io.snowid.lease.LeaseOptions;
import io.snowid.node.NodeLease;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The default time source against a registry with a clock of its own, on another host whose clock
 * was not stepped: it reads the real time, which here is the manual clock's monotonic time. NTP
 * steps this host's wall clock forward, the source follows, the registry fences the holder for
 * skew, and NTP takes the step back (docs/design.md section 4, "Rejoining the wall clock").
 */
class MonotonicLeaseRegressionTest {
  private final ManualClock clock = ManualClock.at(Instant.parse("2025-05-01T00:00:00Z"));
  private final long startNanos = clock.nanoTime(); // frozen: reading it moves nothing
  private final long startMillis = clock.wallInstant().toEpochMilli();
  private final TimeSource time = TimeSource.monotonic(clock);
  private final FaultyCoordinator registry =
      new FaultyCoordinator(
          new MemoryLeaseCoordinator(new MemoryRegistry("slew"), this::realMillis));

  private long realMillis() {
    return startMillis + (clock.nanoTime() - startNanos) / 1_000_000L;
  }

  /** Real time passes in steps of 100 ms, each read by this host's time source, as a busy one. */
  private void pass(Duration d) {
    for (long i = d.toMillis() / 100; i > 0; i--) {
      clock.advance(Duration.ofMillis(100));
      time.millis();
    }
  }

  /** Waits until the holder asked the registry again, with the clocks standing where they are. */
  private void awaitAnotherCall() {
    Lease last = registry.lastGranted();
    await().until(() -> registry.lastGranted() != last);
  }

  private NodeLease lease(String ttl) {
    LeaseOptions options =
        LeaseOptions.parse(
            "memory:slew?namespace=slew&ttl=" + ttl + "&renew=20ms", Duration.ofSeconds(2));
    return LeaseCoordinators.lease(
        registry, options, Layout.twitter(), Map.of("datacenter", 1L), time);
  }

  /**
   * The next ID once the generator has bound the grant the lease reports held (the lease's status
   * changes just before its generator binds the grant: a call in between finds the lease lost).
   */
  private static long nextIdOnceBound(Snowflake gen) {
    long[] id = new long[1];
    await()
        .ignoreException(LeaseLostException.class)
        .until(
            () -> {
              id[0] = gen.nextId();
              return true;
            });
    return id[0];
  }

  /** The wall clock steps forward, the source follows at its resync, the registry fences. */
  private void stepForwardUntilFenced(Duration step, NodeLease lease) {
    clock.set(clock.wallInstant().plus(step));
    pass(Duration.ofMillis(1100)); // the source follows the step at its resync
    await().until(() -> lease.status().detail().contains("clock skew"));
  }

  // A forward step of an hour taken back used to mean ten hours of fence: the slew at 0.9.
  @Test
  void renew_afterAnHourLongForwardStepTakenBack_issuesAgainWithNoTimePassing() {
    try (NodeLease lease = lease("2s")) {
      Snowflake gen = Snowflake.builder().lease(lease).timeSource(time).build();
      long before = gen.nextId();
      stepForwardUntilFenced(Duration.ofHours(1), lease);
      assertThat(gen.tryNextId()).isEqualTo(Snowflake.NO_ID); // fenced while ahead

      clock.stepBack(Duration.ofHours(1)); // NTP takes the step back; no real time passes

      await().until(() -> lease.status().held());
      long after = nextIdOnceBound(gen);
      assertThat(after).isGreaterThan(before);
      long afterTime = gen.layout().decode(after).timestampMillis();
      assertThat(afterTime).isGreaterThan(gen.layout().decode(before).timestampMillis());
      assertThat(afterTime).as("on the wall clock again").isLessThanOrEqualTo(realMillis());
      assertThat(lease.status().detail()).isEqualTo("held");
    }
  }

  // Before the rejoin the guard took the source's going back for a clock step, and the fail
  // policy threw to the caller for a position the generator had issued in the ahead time.
  @Test
  void nextId_issuedAheadThenRejoined_failPolicy_waitsForItsPositionInsteadOfThrowing() {
    try (NodeLease lease = lease("10s")) {
      Snowflake gen =
          Snowflake.builder().lease(lease).timeSource(time).clockPolicy(ClockPolicy.FAIL).build();
      gen.nextId();
      registry.failRenewals(true); // no renewal sees the step until an ID was issued ahead
      clock.set(clock.wallInstant().plusSeconds(3));
      pass(Duration.ofMillis(1100)); // followed: within the deadline, so it issues ahead
      long ahead = gen.nextId();
      registry.failRenewals(false);
      await().until(() -> lease.status().detail().contains("clock skew"));

      clock.stepBack(Duration.ofSeconds(3));
      await().until(() -> lease.status().held());
      long after = nextIdOnceBound(gen); // the position is 3 s ahead: waits (parks pass at once)

      assertThat(after).isGreaterThan(ahead);
      assertThat(clock.parked()).isGreaterThan(Duration.ofSeconds(2));
    }
  }

  // The grant from before the rejoin counts in the time from before: were it bound again after
  // the source went back (here 2 s behind real time, NTP's correction overshot), the generator
  // would issue under it for those 2 s past the registry's expiry.
  @Test
  void rejoin_registryStopsAnsweringRightAfter_issuesNothingUnderTheGrantFromBefore() {
    try (NodeLease lease = lease("2s")) {
      Snowflake gen = Snowflake.builder().lease(lease).timeSource(time).build();
      long before = gen.nextId();
      stepForwardUntilFenced(Duration.ofSeconds(4), lease);

      registry.failRenewalsSentBelow(realMillis()); // answered while ahead, not after the rejoin
      clock.stepBack(Duration.ofSeconds(6)); // to 2 s behind real time
      await().until(() -> time.millis() < realMillis());
      long expiry = registry.lastGranted().expiresAtMillis();

      for (int i = 0; i < 50; i++) { // 5 s: past the registry's expiry
        assertThat(gen.tryNextId()).as("at real %s", realMillis() - expiry).isEqualTo(0L);
        clock.advance(Duration.ofMillis(100));
      }
      assertThat(realMillis()).isGreaterThan(expiry);
      assertThat(lease.status().held()).isFalse();
      assertThat(before).isPositive();
    }
  }

  // A run reserved before the rejoin and parked for its time was returned once the rejoined
  // (overshot) wall clock reached it: 1.7 s after the registry's expiry, past a deadline counted
  // from before the rejoin. It is given up now, and the fenced generator issues nothing.
  @Test
  void nextIds_runWaitingForItsTimeAcrossARejoin_isGivenUpNotReturnedAfterTheRegistrysExpiry() {
    Layout layout =
        Layout.parse("time=41,worker=5,sequence=1,unit=100ms,epoch=2020-01-01T00:00:00Z");
    LeaseOptions options =
        LeaseOptions.parse("memory:slew?namespace=slew&ttl=10s&renew=20ms", Duration.ofSeconds(10));
    try (NodeLease lease = LeaseCoordinators.lease(registry, options, layout, Map.of(), time)) {
      Snowflake gen = Snowflake.builder().layout(layout).lease(lease).timeSource(time).build();
      gen.nextId();
      registry.failRenewals(true);
      clock.set(clock.wallInstant().plusSeconds(3)); // forward step, followed
      pass(Duration.ofMillis(1100));
      clock.beforeNextPark(
          () -> {
            registry.failRenewalsSentBelow(realMillis()); // unreachable right after the rejoin
            clock.stepBack(Duration.ofSeconds(8)); // NTP takes it back, overshooting by 5 s
            registry.failRenewals(false);
            await().until(() -> time.millis() < realMillis());
          });
      long[] run = new long[76]; // 100 ms ticks up to the old deadline's: a run that waits

      assertThatThrownBy(() -> gen.nextIds(run)).isInstanceOf(LeaseLostException.class);
      assertThat(run).containsOnly(0L);
    }
  }

  // A source that two generators read cannot go back for one of them: it slews, and the
  // holder issues again once within the skew, after (step - skew) / 0.1 s.
  @Test
  void renew_forwardStepTakenBack_sourceReadByTwoGenerators_issuesAgainOnceSlewedWithinSkew() {
    try (NodeLease lease = lease("2s");
        Snowflake other =
            Snowflake.builder()
                .timeSource(time)
                .node(Map.of("datacenter", 2L, "worker", 3L))
                .build()) {
      Snowflake gen = Snowflake.builder().lease(lease).timeSource(time).build();
      long before = gen.nextId();
      other.nextId();
      stepForwardUntilFenced(Duration.ofSeconds(4), lease);
      clock.stepBack(Duration.ofSeconds(4));

      // Slewing from the next resync (within 1 s) at 0.9: within the skew of 1 s after 31 s.
      pass(Duration.ofSeconds(30));
      awaitAnotherCall();
      assertThat(lease.status().held()).isFalse(); // still 1.1 s ahead: fenced, rightly
      assertThat(lease.status().detail()).contains("clock skew");

      pass(Duration.ofSeconds(2));
      await().until(() -> lease.status().held());
      long after = nextIdOnceBound(gen);
      assertThat(after).isGreaterThan(before);
    }
  }
}
