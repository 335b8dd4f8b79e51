package io.snowid.torture;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The faults of a run, drawn from a seed: the same seed, kinds, length, fleet and lease time give
 * the same schedule. Faults on one target never overlap; faults on different targets may.
 */
final class Schedule {
  private Schedule() {}

  /**
   * @param seconds the run's length; faults start after a warm-up of 3 lease times + 2 s and end
   *     (healed) 3 s before the end
   */
  static List<Fault> plan(
      long seed, List<FaultKind> kinds, long seconds, int slots, int hosts, long ttlMillis) {
    return plan(seed, kinds, seconds, slots, hosts, ttlMillis, false);
  }

  /**
   * @param everyKind whether the first faults are one of each kind, in the order given (as far as
   *     the run is long enough), before the kinds are drawn at random
   */
  static List<Fault> plan(
      long seed,
      List<FaultKind> kinds,
      long seconds,
      int slots,
      int hosts,
      long ttlMillis,
      boolean everyKind) {
    List<Fault> plan = new ArrayList<>();
    List<FaultKind> first = new ArrayList<>(everyKind ? kinds : List.of());
    if (kinds.isEmpty()) {
      return plan;
    }
    SplittableRandom r = new SplittableRandom(seed);
    long end = seconds * 1000 - 3000;
    long[] slotFree = new long[slots];
    long[] hostFree = new long[Math.max(hosts, 0)];
    long registryFree = 0;
    Arrays.fill(slotFree, 0);
    long t = 3 * ttlMillis + 2000;
    while (true) {
      t += 500 + r.nextLong(Math.max(1, ttlMillis));
      if (t >= end) {
        break;
      }
      FaultKind kind = first.isEmpty() ? kinds.get(r.nextInt(kinds.size())) : first.get(0);
      long duration = duration(kind, r, ttlMillis);
      long magnitude = magnitude(kind, r, ttlMillis);
      if (t + duration > end) {
        continue;
      }
      int target;
      if (kind.onRegistry()) {
        if (registryFree > t) {
          continue;
        }
        registryFree = t + duration + 2 * ttlMillis;
        target = -1;
      } else if (kind.onHost()) {
        target = r.nextInt(hosts);
        if (hostFree[target] > t) {
          continue;
        }
        hostFree[target] = t + duration + ttlMillis;
      } else {
        target = r.nextInt(slots);
        if (slotFree[target] > t) {
          continue;
        }
        slotFree[target] = t + duration + ttlMillis;
      }
      plan.add(new Fault(t, kind, target, duration, magnitude));
      first.remove(kind);
    }
    return plan;
  }

  private static long duration(FaultKind kind, SplittableRandom r, long ttl) {
    return switch (kind) {
      case KILL, REGISTRY_ROLLBACK -> 0;
      case PAUSE -> ttl * 12 / 10 + r.nextLong(ttl * 13 / 10);
      case REGISTRY_RESTART -> r.nextLong(2000);
      case PARTITION, LINK_DOWN -> ttl * 12 / 10 + r.nextLong(ttl * 18 / 10);
      case DELAY -> 2000 + r.nextLong(4000);
      case CLOCK_BACK, CLOCK_FORWARD -> 2000 + r.nextLong(6000);
      case RESTART_CLOCK_BACK -> 5000 + r.nextLong(10000);
    };
  }

  private static long magnitude(FaultKind kind, SplittableRandom r, long ttl) {
    return switch (kind) {
      case DELAY -> 100 + r.nextLong(1400);
      case CLOCK_BACK, CLOCK_FORWARD -> 200 + r.nextLong(5800);
      case RESTART_CLOCK_BACK -> ttl + 1000 + r.nextLong(4000);
      case REGISTRY_ROLLBACK -> ttl * 12 / 10 + 1000 + r.nextLong(ttl * 48 / 10);
      default -> 0;
    };
  }
}
