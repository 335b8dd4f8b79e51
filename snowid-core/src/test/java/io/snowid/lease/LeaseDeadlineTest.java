package io.snowid.lease;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.Layout;
import io.snowid.TimeSource;
import io.snowid.node.NodeLease;
import io.snowid.testkit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Guarantee 6 at its edge: a registry that answers slowly and grants less than was asked. The
 * registry may start counting the lease as early as the request was sent, so the generator's
 * deadline must be counted from then, less a safety margin.
 */
class LeaseDeadlineTest {
  private static final Duration LATENCY = Duration.ofMillis(700);
  private static final long GRANTED_MILLIS = 1_000;

  /** The clock moves on while it works; it answers mid-way with a lease shorter than asked. */
  private static final class SlowShortGrantCoordinator implements LeaseCoordinator {
    private final ManualClock clock;
    volatile long sent;

    SlowShortGrantCoordinator(ManualClock clock) {
      this.clock = clock;
    }

    private Lease answer(String namespace, String instance, long localNowMillis) {
      sent = localNowMillis;
      clock.advance(LATENCY);
      long coordinatorNow = localNowMillis + LATENCY.toMillis() / 2;
      return new Lease(
          namespace,
          0,
          instance,
          "token",
          coordinatorNow,
          coordinatorNow + GRANTED_MILLIS,
          Long.MIN_VALUE);
    }

    @Override
    public Lease acquire(AcquireRequest request) {
      return answer(request.namespace(), request.instance(), request.terms().localNowMillis());
    }

    @Override
    public Lease renew(Lease lease, LeaseTerms terms) {
      return answer(lease.namespace(), lease.instance(), terms.localNowMillis());
    }

    @Override
    public void release(Lease lease, long issuedUpToMillis) {}

    @Override
    public LeaseListing list(String namespace) {
      throw new UnsupportedOperationException("a fake for deadlines: nothing to list");
    }

    @Override
    public void releaseAbandoned(String namespace, long nodeId) {
      throw new UnsupportedOperationException("a fake for deadlines: nothing to release");
    }

    @Override
    public String describe() {
      return "slow";
    }

    @Override
    public void close() {}
  }

  @Test
  void acquire_slowAnswerAndShortGrant_deadlineEndsBeforeTheRegistryCanExpireTheLease() {
    ManualClock clock = ManualClock.at(Instant.parse("2025-06-01T00:00:00Z"));
    SlowShortGrantCoordinator coordinator = new SlowShortGrantCoordinator(clock);
    LeaseOptions options =
        LeaseOptions.parse("slow?namespace=deadline&ttl=3s&instance=me", Duration.ofSeconds(3));
    Layout layout = Layout.parse("time=41,worker=10,sequence=12,epoch=2020-01-01T00:00:00Z");

    try (NodeLease lease =
        LeaseCoordinators.lease(
            coordinator, options, layout, Map.of(), TimeSource.monotonic(clock))) {
      long earliestRegistryExpiry = coordinator.sent + GRANTED_MILLIS;
      assertThat(lease.status().validUntil())
          .isBefore(Instant.ofEpochMilli(earliestRegistryExpiry));
    }
  }
}
