package io.snowid.torture;

/**
 * The availability target of each fault kind: from the fault's end to the affected slot's next ID,
 * a median of at most 2 s and a worst of at most one lease time, both plus the wait that uniqueness
 * needs after such a fault, and no more (RELIABILITY.md, "Availability targets"; the waits are
 * derived in docs/design.md, "The lease").
 *
 * @param medianMicros the median after healing may be at most this
 * @param worstMicros the longest after healing may be at most this
 * @param needed why uniqueness needs a wait after this fault, with its formula; empty if it needs
 *     none
 */
record Availability(long medianMicros, long worstMicros, String needed) {
  /** The median's allowance beyond the wait uniqueness needs. */
  static final long MEDIAN_MICROS = 2_000_000;

  /** The target of {@code kind} in a run of {@code coordinator} with lease time {@code ttl}. */
  static Availability of(FaultKind kind, String coordinator, long ttlMillis) {
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
      case KILL -> {
        waitMillis = ttlMillis - margin;
        why =
            "the replacement starts past the mark its predecessor's last renewal recorded, up to"
                + " ttl - margin = ";
      }
      case REGISTRY_ROLLBACK -> {
        waitMillis = lossWait;
        why = loss;
      }
      case REGISTRY_RESTART -> {
        // Redis is stopped with shutdown nosave: it comes back empty; the others keep their state
        waitMillis = coordinator.equals("redis://") ? lossWait : 0;
        why = coordinator.equals("redis://") ? loss : "";
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

  /** The wait uniqueness needs after such a fault, in microseconds (0 if none). */
  long waitMicros() {
    return medianMicros - MEDIAN_MICROS;
  }

  /** Whether a kind's recoveries, median and worst, met this target. */
  boolean met(long medianMicros, long worstMicros) {
    return medianMicros <= this.medianMicros && worstMicros <= this.worstMicros;
  }
}
