package io.snowid.torture;

/**
 * A stretch of time in which, by the registry's own records, a worker process ({@code instance})
 * held a node id ({@code nodeKey}: the node field values as one number, the last field lowest).
 * Times are monotonic microseconds; a hold still running at the end reaches {@link Long#MAX_VALUE}.
 */
record Hold(String instance, long nodeKey, long fromMicros, long toMicros) {
  String line() {
    return instance + " " + nodeKey + " " + fromMicros + " " + toMicros;
  }

  static Hold parse(String line) {
    String[] f = line.trim().split(" ");
    return new Hold(f[0], Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]));
  }
}
