package io.snowid.testkit;

import io.snowid.Ticker;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A {@link Ticker} that moves only when told: {@link #advance} moves both clocks, {@link #stepBack}
 * and {@link #set} move only the wall clock (an NTP step), {@link #autoAdvance} lets every read
 * move time on, and a park (a generator waiting for its next time unit) passes its time at once
 * instead of sleeping. {@link #beforeRead} steps the clock at one chosen read inside a call, and
 * {@link #beforeNextPark} while a caller waits. Thread-safe.
 */
public final class ManualClock implements Ticker {
  private final AtomicLong wallNanos;
  private final AtomicLong monoNanos = new AtomicLong(1_000_000_000L);
  private final AtomicLong perRead = new AtomicLong();
  private final AtomicLong parks = new AtomicLong();
  private final AtomicLong parkedNanos = new AtomicLong();
  private final AtomicLong wallReads = new AtomicLong();
  private final Map<Long, Runnable> readHooks = new ConcurrentHashMap<>();
  private final AtomicReference<Runnable> nextParkHook = new AtomicReference<>();
  private volatile Runnable everyParkHook = () -> {};

  private ManualClock(Instant start) {
    this.wallNanos = new AtomicLong(start.getEpochSecond() * 1_000_000_000L + start.getNano());
  }

  /** A frozen clock whose wall clock reads {@code start}. */
  public static ManualClock at(Instant start) {
    return new ManualClock(start);
  }

  /** A frozen clock at 2025-01-01T00:00:00Z. */
  public static ManualClock create() {
    return at(Instant.parse("2025-01-01T00:00:00Z"));
  }

  @Override
  public long wallMillis() {
    long read = wallReads.incrementAndGet();
    if (!readHooks.isEmpty()) {
      Runnable hook = readHooks.remove(read);
      if (hook != null) {
        hook.run();
      }
    }
    return Math.floorDiv(wallNanos.addAndGet(tick()), 1_000_000L);
  }

  @Override
  public long nanoTime() {
    long step = tick();
    wallNanos.addAndGet(step);
    return monoNanos.addAndGet(step);
  }

  /**
   * Passes the requested time at once (both clocks) instead of sleeping, after running the park
   * hooks ({@link #beforeNextPark}, {@link #beforeEveryPark}).
   */
  @Override
  public void parkNanos(long nanos) {
    Runnable once = nextParkHook.getAndSet(null);
    if (once != null) {
      once.run();
    }
    everyParkHook.run();
    parks.incrementAndGet();
    long n = Math.max(nanos, 1);
    parkedNanos.addAndGet(n);
    advanceNanos(n);
  }

  private long tick() {
    long step = perRead.get();
    if (step != 0) {
      monoNanos.addAndGet(step);
    }
    return step;
  }

  /**
   * Runs {@code hook} once, on the thread of the next park, before its time passes: to step the
   * clock or publish a lease renewal exactly while a caller waits.
   */
  public ManualClock beforeNextPark(Runnable hook) {
    nextParkHook.set(hook);
    return this;
  }

  /**
   * Runs {@code action} once, on the reading thread, just before the {@code n}-th next read of the
   * wall clock ({@link #wallMillis()}) takes its value; {@code n = 1} is the very next read. So a
   * test can step the clock between two reads inside one call, e.g. between the read a generator
   * decides on and the read it checks that decision with. The count is of reads from now on, by
   * every thread; the monotonic clock's reads ({@link #nanoTime()}) do not count. Actions for
   * different reads may be pending at once; a second action for the same read runs after the first.
   *
   * @throws IllegalArgumentException if {@code n < 1}
   */
  public ManualClock beforeRead(int n, Runnable action) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be at least 1: " + n);
    }
    readHooks.merge(
        wallReads.get() + n,
        action,
        (first, second) ->
            () -> {
              first.run();
              second.run();
            });
    return this;
  }

  /** How many times the wall clock was read so far, by every thread. */
  public long wallReads() {
    return wallReads.get();
  }

  /** Runs {@code hook} on every park, e.g. to hold callers until a latch opens. */
  public ManualClock beforeEveryPark(Runnable hook) {
    everyParkHook = hook;
    return this;
  }

  /** Moves both clocks forward. */
  public ManualClock advance(Duration d) {
    requireNonNegative(d);
    advanceNanos(d.toNanos());
    return this;
  }

  private void advanceNanos(long n) {
    monoNanos.addAndGet(n);
    wallNanos.addAndGet(n);
  }

  /** Steps the wall clock back (the monotonic clock is untouched), as an NTP step would. */
  public ManualClock stepBack(Duration d) {
    requireNonNegative(d);
    wallNanos.addAndGet(-d.toNanos());
    return this;
  }

  /** Sets the wall clock, in either direction; the monotonic clock is untouched. */
  public ManualClock set(Instant wall) {
    wallNanos.set(wall.getEpochSecond() * 1_000_000_000L + wall.getNano());
    return this;
  }

  /** Every read of either clock first moves both clocks by {@code perRead}. */
  public ManualClock autoAdvance(Duration perReadStep) {
    requireNonNegative(perReadStep);
    perRead.set(perReadStep.toNanos());
    return this;
  }

  /** Stops {@link #autoAdvance}: time moves only when told again. */
  public ManualClock freeze() {
    perRead.set(0);
    return this;
  }

  /** The wall clock now, without moving it. */
  public Instant wallInstant() {
    long n = wallNanos.get();
    return Instant.ofEpochSecond(
        Math.floorDiv(n, 1_000_000_000L), Math.floorMod(n, 1_000_000_000L));
  }

  /** How many times a caller parked on this clock. */
  public long parks() {
    return parks.get();
  }

  /** The total time callers parked, which passed at once. */
  public Duration parked() {
    return Duration.ofNanos(parkedNanos.get());
  }

  private static void requireNonNegative(Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException("duration must not be negative: " + d);
    }
  }
}
