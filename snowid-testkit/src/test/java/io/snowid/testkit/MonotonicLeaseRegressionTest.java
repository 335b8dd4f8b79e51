package io.snowid.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.snowid.Layout;
import io.snowid.Snowflake;
import io.snowid.TimeSource;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseCoordinators;
import io.snowid.lease.LeaseOptions;
import io.snowid.node.NodeLease;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The default time source against a registry with a clock of its own, on another host whose clock
 * was not stepped: it reads the real time, which here is the manual clock's monotonic time.
 */
class MonotonicLeaseRegressionTest {
  private final ManualClock clock = ManualClock.at(Instant.parse("2025-05-01T00:00:00Z"));
  private final long startNanos = clock.nanoTime(); // frozen: reading it moves nothing
  private final long startMillis = clock.wallInstant().toEpochMilli();
  private final TimeSource time = TimeSource.monotonic(clock);
  private final FaultyCoordinator registry =
      new FaultyCoordinator(
          new MemoryLeaseCoordinator(
              new MemoryRegistry("slew"),
              () -> startMillis + (clock.nanoTime() - startNanos) / 1_000_000L));

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

  // RELIABILITY.md, finding 4: after NTP steps this host's clock forward and takes the step back,
  // the default time source slews back to the wall clock, so once within the allowed skew the
  // renewals pass the skew check again and the generator issues without a restart.
  @Test
  void renew_afterACorrectedForwardStepOfTheWallClock_issuesAgainOnceWithinSkew() {
    LeaseOptions options =
        LeaseOptions.parse("memory:slew?namespace=slew&ttl=2s&renew=20ms", Duration.ofSeconds(2));
    try (NodeLease lease =
        LeaseCoordinators.lease(
            registry, options, Layout.twitter(), Map.of("datacenter", 1L), time)) {
      Snowflake gen = Snowflake.builder().lease(lease).timeSource(time).build();
      long before = gen.nextId();
      clock.set(clock.wallInstant().plusSeconds(4));
      pass(Duration.ofMillis(1100)); // the source follows the step at its resync
      await().until(() -> lease.status().detail().contains("clock skew"));
      clock.stepBack(Duration.ofSeconds(4)); // NTP takes the step back

      // Slewing from the next resync (within 1 s) at 0.9: within the skew of 1 s after 31 s.
      pass(Duration.ofSeconds(30));
      awaitAnotherCall();
      assertThat(lease.status().held()).isFalse(); // still 1.1 s ahead: fenced, rightly
      assertThat(lease.status().detail()).contains("clock skew");

      pass(Duration.ofSeconds(2));
      await().until(() -> lease.status().held());
      long after = gen.nextId();

      assertThat(after).isGreaterThan(before);
      assertThat(gen.layout().decode(after).timestampMillis())
          .isGreaterThan(gen.layout().decode(before).timestampMillis());
    }
  }
}
