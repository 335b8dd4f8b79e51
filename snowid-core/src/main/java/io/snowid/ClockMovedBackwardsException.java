package io.snowid;

import java.time.Duration;
import java.time.Instant;

/**
 * The time source reads earlier than a timestamp this generator already issued, and the clock
 * policy does not allow issuing on ({@code fail}), the step is larger than the {@code wait}
 * policy's bound, or the {@code clockback} field is exhausted. No ID was issued.
 */
public class ClockMovedBackwardsException extends SnowIdException {
  private static final long serialVersionUID = 1L;

  private final long lastMillis;
  private final long nowMillis;

  public ClockMovedBackwardsException(long lastMillis, long nowMillis, String detail) {
    super(
        "clock moved backwards: last issued "
            + Instant.ofEpochMilli(lastMillis)
            + ", time source now "
            + Instant.ofEpochMilli(nowMillis)
            + " ("
            + Durations.format(Duration.ofMillis(lastMillis - nowMillis))
            + " behind); "
            + detail);
    this.lastMillis = lastMillis;
    this.nowMillis = nowMillis;
  }

  /** Unix milliseconds of the latest timestamp already issued. */
  public long lastMillis() {
    return lastMillis;
  }

  /** Unix milliseconds the time source read. */
  public long nowMillis() {
    return nowMillis;
  }
}
