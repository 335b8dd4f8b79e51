package io.snowid.torture;

/**
 * A stretch of time in which, by the registry's own records, a worker process ({@code instance})
 * held a node id ({@code nodeKey}: the node field values as one number, the last field lowest).
 * Times are monotonic microseconds; a hold still running at the end reaches {@link Long#MAX_VALUE}.
 * {@code highWaterMillis} is the high-water mark the registry recorded with it: the latest ID time
 * (Unix ms, by the holder's clock) the holder may issue until its next renewal ({@link
 * Long#MIN_VALUE} if the record has none).
 */
record Hold(String instance, long nodeKey, long fromMicros, long toMicros, long highWaterMillis) {
  String line() {
    return instance + " " + nodeKey + " " + fromMicros + " " + toMicros + " " + highWaterMillis;
  }

  static Hold parse(String line) {
    String[] f = line.trim().split(" ");
    return new Hold(
        f[0],
        Long.parseLong(f[1]),
        Long.parseLong(f[2]),
        Long.parseLong(f[3]),
        Long.parseLong(f[4]));
  }
}
