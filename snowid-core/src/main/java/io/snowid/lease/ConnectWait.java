package io.snowid.lease;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Retries the start of a lease while its registry does not answer yet ({@link
 * RegistryUnavailableException}), for at most the lease option {@code connectWait}, with one log
 * line per failed attempt and a doubling pause; any other failure ends it at once (docs/design.md,
 * "Waiting at start").
 */
final class ConnectWait {
  private static final System.Logger LOG = System.getLogger("io.snowid.lease");
  static final Duration FIRST_PAUSE = Duration.ofMillis(250);
  static final Duration LONGEST_PAUSE = Duration.ofSeconds(4);

  private ConnectWait() {}

  /**
   * The value of {@code start}, tried until it gives one, throws something else, or {@code wait}
   * has passed (real time).
   *
   * @throws RegistryUnavailableException the last failure, once {@code wait} has passed, saying so
   */
  static <T> T retry(Duration wait, Supplier<T> start) {
    long begun = System.nanoTime();
    long limit = wait.toNanos();
    Duration pause = FIRST_PAUSE;
    for (int attempt = 1; ; attempt++) {
      try {
        return start.get();
      } catch (RegistryUnavailableException e) {
        long left = limit - (System.nanoTime() - begun);
        if (left <= 0) {
          throw wait.isZero() ? e : gaveUp(e, wait, attempt);
        }
        long sleep = Math.min(pause.toNanos(), left);
        LOG.log(
            Level.WARNING,
            "{0}; retrying in {1} (attempt {2}; connectWait {3} ends at {4})",
            e.getMessage(),
            LeaseLimits.text(Duration.ofNanos(sleep).truncatedTo(ChronoUnit.MILLIS)),
            attempt,
            LeaseLimits.text(wait),
            Instant.now().plusNanos(left).truncatedTo(ChronoUnit.SECONDS));
        try {
          TimeUnit.NANOSECONDS.sleep(sleep);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw e;
        }
        pause =
            pause.multipliedBy(2).compareTo(LONGEST_PAUSE) > 0
                ? LONGEST_PAUSE
                : pause.multipliedBy(2);
      }
    }
  }

  private static RegistryUnavailableException gaveUp(
      RegistryUnavailableException last, Duration wait, int attempts) {
    RegistryUnavailableException e =
        new RegistryUnavailableException(
            last.getMessage()
                + " (no answer within connectWait "
                + LeaseLimits.text(wait)
                + ", "
                + attempts
                + (attempts == 1 ? " attempt" : " attempts")
                + "; raise it with connectWait= in the node URI)");
    e.initCause(last);
    return e;
  }
}
