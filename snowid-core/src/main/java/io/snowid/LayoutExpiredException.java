package io.snowid;

import java.time.Instant;

/** The time field of the layout cannot hold the current time: the layout's lifetime is over. */
public class LayoutExpiredException extends SnowIdException {
  private static final long serialVersionUID = 1L;

  private final Instant lastInstant;
  private final Instant now;

  public LayoutExpiredException(String layout, Instant lastInstant, Instant now) {
    super(
        "layout "
            + layout
            + " expired: its last valid instant is "
            + lastInstant
            + ", the time source reads "
            + now);
    this.lastInstant = lastInstant;
    this.now = now;
  }

  public Instant lastInstant() {
    return lastInstant;
  }

  public Instant now() {
    return now;
  }
}
