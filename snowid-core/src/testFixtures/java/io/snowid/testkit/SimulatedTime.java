package io.snowid.testkit;

import io.snowid.Ticker;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Real time shared by simulated hosts, each with a wall clock of its own that a test steps: the
 * {@code rt} and {@code off[h]} of the lease model (model/lease.pml), for tests that replay its
 * trails. Real time is also the clock of a {@link ScriptedRegistry}; it moves only when a test
 * advances it or a host parks (a wait of a generator passes at once).
 */
public final class SimulatedTime {
  private final long startNanos;
  private final AtomicLong realNanos = new AtomicLong();

  private SimulatedTime(Instant start) {
    this.startNanos = start.getEpochSecond() * 1_000_000_000L + start.getNano();
  }

  /** Real time starting at {@code start}. */
  public static SimulatedTime at(Instant start) {
    return new SimulatedTime(start);
  }

  /** Real time moves on by {@code d}, on every host. */
  public SimulatedTime advance(Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException("real time does not go back: " + d);
    }
    realNanos.addAndGet(d.toNanos());
    return this;
  }

  /** Real time as epoch milliseconds: the registry's clock. */
  public long realMillis() {
    return Math.floorDiv(startNanos + realNanos.get(), 1_000_000L);
  }

  /** A new host whose wall clock reads real time until it is stepped. */
  public Host host() {
    return new Host();
  }

  /**
   * A host's clocks: its wall clock is real time plus an offset; its monotonic clock never steps.
   */
  public final class Host implements Ticker {
    private final AtomicLong offsetNanos = new AtomicLong();

    private Host() {}

    /** The wall clock steps by {@code d}: forward if positive, back if negative. */
    public Host step(Duration d) {
      offsetNanos.addAndGet(d.toNanos());
      return this;
    }

    @Override
    public long wallMillis() {
      return Math.floorDiv(startNanos + realNanos.get() + offsetNanos.get(), 1_000_000L);
    }

    @Override
    public long nanoTime() {
      return 1_000_000_000L + realNanos.get();
    }

    /** A park lets real time pass, for every host. */
    @Override
    public void parkNanos(long nanos) {
      realNanos.addAndGet(Math.max(nanos, 1));
    }
  }
}
