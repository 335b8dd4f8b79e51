package io.snowid.server;

import io.snowid.testkit.ManualClock;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A frozen clock whose waits block until the test opens the gate: a request that needs the next
 * millisecond (or a high-water mark ahead) stays in flight, parked, for as long as the test wants.
 */
final class GatedClock {
  final ManualClock clock = ManualClock.at(Instant.now());
  final CountDownLatch gate = new CountDownLatch(1);
  final AtomicBoolean parked = new AtomicBoolean();

  GatedClock() {
    clock.beforeEveryPark(
        () -> {
          parked.set(true);
          try {
            gate.await(60, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
  }
}
