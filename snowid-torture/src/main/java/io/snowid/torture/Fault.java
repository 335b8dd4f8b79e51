package io.snowid.torture;

/**
 * One planned fault: at {@code atMillis} after the start, on a worker slot or a host ({@code
 * target}; -1 for the registry), for {@code durationMillis}; {@code magnitudeMillis} is the clock
 * step, the network delay or the age of the state a rollback puts back.
 */
record Fault(long atMillis, FaultKind kind, int target, long durationMillis, long magnitudeMillis) {
  String describe() {
    String on =
        kind.onRegistry() ? "registry" : (kind.onHost() ? "host " : "worker slot ") + target;
    String what =
        switch (kind) {
          case KILL -> "";
          case PAUSE, PARTITION, LINK_DOWN, REGISTRY_RESTART -> " for " + durationMillis + " ms";
          case DELAY -> " by " + magnitudeMillis + " ms for " + durationMillis + " ms";
          case CLOCK_BACK, RESTART_CLOCK_BACK ->
              " clock -" + magnitudeMillis + " ms, restored after " + durationMillis + " ms";
          case REGISTRY_ROLLBACK -> " to its state " + magnitudeMillis + " ms before";
          case CLOCK_FORWARD ->
              " clock +" + magnitudeMillis + " ms, restored after " + durationMillis + " ms";
        };
    return String.format("t+%7.3f s  %-18s %s%s", atMillis / 1000.0, kind.label(), on, what);
  }
}
