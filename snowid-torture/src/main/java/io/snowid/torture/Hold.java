package io.snowid.torture;

/**
 * A stretch of time in which, by the registry's own records, a worker process ({@code instance})
 * held node id {@code nodeKey} of namespace key {@code namespace}. A lease id is the node values
 * packed into one number (node fields from the most significant down), so it is the node bits of
 * the IDs issued under it whichever way the holder's layout names them. Times are monotonic
 * microseconds; a hold still running at the end reaches {@link Long#MAX_VALUE}. {@code
 * highWaterMillis} is the high-water mark the registry recorded with it: the latest ID time (Unix
 * ms, by the holder's clock) the holder may issue until its next renewal ({@link Long#MIN_VALUE} if
 * the record has none).
 */
record Hold(
    String instance,
    String namespace,
    long nodeKey,
    long fromMicros,
    long toMicros,
    long highWaterMillis) {
  String line() {
    return instance
        + " "
        + nodeKey
        + " "
        + fromMicros
        + " "
        + toMicros
        + " "
        + highWaterMillis
        + " "
        + namespace;
  }

  /** A line of {@link #line()}; a line of five fields (no namespace) gets namespace "?". */
  static Hold parse(String line) {
    String[] f = line.trim().split(" ");
    return new Hold(
        f[0],
        f.length > 5 ? f[5] : "?",
        Long.parseLong(f[1]),
        Long.parseLong(f[2]),
        Long.parseLong(f[3]),
        Long.parseLong(f[4]));
  }
}
