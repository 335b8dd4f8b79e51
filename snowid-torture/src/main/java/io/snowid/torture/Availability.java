package io.snowid.torture;

/**
 * The availability target of a fault: from the fault's end to the affected slot's next ID, a median
 * of at most 2 s and a worst of at most one lease time, both plus the wait that uniqueness needs
 * after such a fault, and no more (RELIABILITY.md, "Availability targets"; the waits are derived in
 * docs/design.md, "The lease" and §9 "Availability").
 *
 * @param medianMicros the median after healing may be at most this
 * @param worstMicros the longest after healing may be at most this
 * @param needed why uniqueness needs a wait after this fault, with its formula; empty if it needs
 *     none
 */
record Availability(long medianMicros, long worstMicros, String needed) {
  /** The median's allowance beyond the wait uniqueness needs. */
  static final long MEDIAN_MICROS = 2_000_000;

  /** The target of a fault of {@code kind} that lasted no longer than maxTtl. */
  static Availability of(FaultKind kind, String coordinator, long ttlMillis) {
    return of(kind, coordinator, ttlMillis, 0);
  }

  /** The target of the applied fault {@code f} in a run of {@code coordinator}. */
  static Availability of(FaultLog.Applied f, String coordinator, long ttlMillis) {
    return of(f.kind(), coordinator, ttlMillis, (f.toMicros() - f.fromMicros()) / 1000);
  }

  /**
   * The target of a fault of {@code kind} that lasted {@code outageMillis} (a registry restart:
   * from the registry's stop until it answered) in a run of {@code coordinator} with lease time
   * {@code ttl}.
   */
  static Availability of(FaultKind kind, String coordinator, long ttlMillis, long outageMillis) {
    long maxTtl = Run.maxTtlMillis(ttlMillis);
    long margin = Math.max(ttlMillis / 5, Math.min(50, ttlMillis / 2)); // LeaseHolder's margin
    // LeaseLimits.lossWait(): lostUntil is maxTtl + maxSkew + 1 s after the loss is found, and a
    // clock up to maxSkew behind the registry's waits that much longer
    long lossWait = maxTtl + 2 * Run.MAX_SKEW_MILLIS + 1_000;
    String loss =
        "after a registry lost its state a newcomer waits up to maxTtl + 2 × maxSkew + 1 s = ";
    long waitMillis;
    String why;
    switch (kind) {
      case KILL, RESTART_CLOCK_BACK -> {
        waitMillis = ttlMillis - margin;
        why =
            "the replacement (its clock set back, then restored, for restart-clock-back) starts"
                + " past the mark its predecessor's last renewal recorded, up to ttl - margin = ";
      }
      case REGISTRY_ROLLBACK -> {
        waitMillis = lossWait;
        why = loss;
      }
      case REGISTRY_RESTART -> {
        // Redis is stopped with shutdown nosave: it comes back empty; the others keep their state,
        // but every network registry takes "no write for maxTtl" for a restore of an older state,
        // which nobody can tell from an outage that long (docs/design.md, "A registry that lost
        // its state")
        if (coordinator.equals("redis://")) {
          waitMillis = lossWait;
          why = loss;
        } else if (outageMillis > maxTtl) {
          waitMillis = lossWait;
          why =
              "down longer than maxTtl ("
                  + maxTtl / 1000.0
                  + " s), nothing was written for as long: a newcomer cannot tell that from a"
                  + " restore of an older state and waits up to maxTtl + 2 × maxSkew + 1 s = ";
        } else {
          waitMillis = 0;
          why = "";
        }
      }
      default -> {
        waitMillis = 0;
        why = "";
      }
    }
    return new Availability(
        MEDIAN_MICROS + waitMillis * 1000,
        (ttlMillis + waitMillis) * 1000,
        why.isEmpty() ? "" : why + waitMillis / 1000.0 + " s");
  }

  /** Why a kill's replacement waits longer than ttl - margin. */
  static final String AHEAD_MARK =
      "the replacement starts past the high-water mark recorded for the id it took, which its"
          + " last holder's ID times had put ahead of the wall clock (a monotonic time source"
          + " slewing back after a forward step): ";

  /** Why a registry loss's newcomers on etcd wait longer than the loss wait. */
  static final String AHEAD_RECORDER =
      "the loss was recorded by a holder whose wall clock stood ahead: the loss wait plus the"
          + " lead beyond maxSkew its record showed when it appeared = ";

  /**
   * This target, or one with the wait {@code waitMicros} (and the same allowance beyond it) if
   * uniqueness needs that longer one.
   */
  Availability atLeast(long waitMicros, String why) {
    if (waitMicros <= waitMicros()) {
      return this;
    }
    return new Availability(
        MEDIAN_MICROS + waitMicros,
        worstMicros - waitMicros() + waitMicros,
        why + Math.round(waitMicros / 1e5) / 10.0 + " s");
  }

  /** The wait uniqueness needs after such a fault, in microseconds (0 if none). */
  long waitMicros() {
    return medianMicros - MEDIAN_MICROS;
  }

  /** Whether a kind's recoveries, median and worst, met this target. */
  boolean met(long medianMicros, long worstMicros) {
    return medianMicros <= this.medianMicros && worstMicros <= this.worstMicros;
  }
}
