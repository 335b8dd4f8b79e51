package io.snowid.server;

import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Failures to accept a connection (EMFILE when the process is out of file descriptors, ENFILE,
 * ENOBUFS), logged once per interval with their count instead of one stack trace per connection: a
 * flood would otherwise fill the log as fast as it fills the backlog.
 *
 * <p>The first failure is logged at once; those that follow within the interval are counted, and
 * the count is logged with the next failure after the interval, or by {@link #flush} (called
 * periodically) once the interval has passed.
 */
final class AcceptFailures {
  private final long intervalNanos;
  private final LongSupplier nanoClock;
  private final Consumer<String> log;
  private long count; // failures not logged yet (guarded by this)
  private long lastLog; // guarded by this
  private boolean logged; // guarded by this
  private String last; // the latest failure not logged (guarded by this)

  AcceptFailures(Duration interval, LongSupplier nanoClock, Consumer<String> log) {
    this.intervalNanos = interval.toNanos();
    this.nanoClock = nanoClock;
    this.log = log;
  }

  /** Counts a failure; logs it with those counted before if the interval has passed. */
  synchronized void record(Throwable failure) {
    count++;
    last = String.valueOf(failure);
    flush();
  }

  /** Logs the failures counted, if any and the interval since the last line has passed. */
  synchronized void flush() {
    long now = nanoClock.getAsLong();
    if (count == 0 || (logged && now - lastLog < intervalNanos)) {
      return;
    }
    String since = logged ? " in the last " + seconds(now - lastLog) : "";
    log.accept(
        "accepting a connection failed "
            + count
            + (count == 1 ? " time" : " times")
            + since
            + " (last: "
            + last
            + "); further failures are logged at most once every "
            + seconds(intervalNanos));
    count = 0;
    last = null;
    lastLog = now;
    logged = true;
  }

  private static String seconds(long nanos) {
    return Math.round(nanos / 1e9) + " s";
  }
}
