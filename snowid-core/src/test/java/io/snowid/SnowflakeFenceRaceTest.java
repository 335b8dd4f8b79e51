package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.lease.LeaseLostException;
import io.snowid.node.GrantListener;
import io.snowid.node.NodeGrant;
import io.snowid.node.NodeLease;
import io.snowid.node.NodeStatus;
import io.snowid.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The lease thread against issuing threads. Releasing a lease fences the generator, then reads what
 * it issued and records that as the node's high-water mark (what {@code LeaseHolder.close} does):
 * no ID may be returned past that mark, or the next holder of the node could repeat it.
 */
class SnowflakeFenceRaceTest {
  // one sequence bit: nearly every other ID moves to the next unit, so a late ID shows in its time
  private static final Layout LAYOUT =
      Layout.parse("time=41,worker=10,sequence=1,epoch=2020-01-01T00:00:00Z");
  private static final NodeGrant GRANT =
      new NodeGrant(Map.of("worker", 5L), Long.MAX_VALUE, Long.MIN_VALUE, 1, "hand");

  /** Hands out one grant and keeps what the generator attached, for the test to drive. */
  private static final class CapturingLease implements NodeLease {
    volatile GrantListener listener;

    @Override
    public void attach(GrantListener generator) {
      listener = generator;
      generator.onGrant(GRANT);
    }

    @Override
    public NodeStatus status() {
      return new NodeStatus(true, "hand", GRANT.values(), null, "", 0, 0);
    }

    @Override
    public void close() {}
  }

  @Test
  void nextId_fencedWhileThreadsIssue_noIdCarriesATimePastTheMarkReadAfterTheFence()
      throws InterruptedException {
    for (int round = 0; round < 500; round++) {
      CapturingLease lease = new CapturingLease();
      Snowflake gen =
          Snowflake.builder()
              .layout(LAYOUT)
              .lease(lease)
              .timeSource(TimeSource.monotonic(ManualClock.create())) // frozen
              .maxLead(Duration.ofMinutes(1)) // carries run ahead without waiting
              .build();
      AtomicLong issued = new AtomicLong();
      long[] maxPerThread = new long[3];
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < maxPerThread.length; t++) {
        int me = t;
        Thread th =
            new Thread(
                () -> {
                  try {
                    for (; ; ) {
                      maxPerThread[me] = Math.max(maxPerThread[me], gen.nextId());
                      issued.incrementAndGet();
                    }
                  } catch (LeaseLostException expected) {
                    // fenced: stop
                  }
                });
        threads.add(th);
        th.start();
      }
      while (issued.get() < 2_000) {
        Thread.onSpinWait();
      }

      lease.listener.onGrant(GRANT.renewed(Long.MIN_VALUE + 1)); // fence, as a release does
      long mark = lease.listener.lastIssuedMillis(); // then record what was issued

      for (Thread th : threads) {
        th.join();
      }
      for (long max : maxPerThread) {
        assertThat(LAYOUT.decode(max).timestampMillis())
            .as("round %d: an ID returned after the fence and the high-water read", round)
            .isLessThanOrEqualTo(mark);
      }
    }
  }
}
