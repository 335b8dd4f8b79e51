package io.snowid;

import java.util.Locale;

/**
 * What a generator does when its time source reads earlier than a timestamp it already issued
 * (beyond the configured lead). Only a source that can step back needs it: the default {@link
 * TimeSource#monotonic()} never does.
 */
public enum ClockPolicy {
  /**
   * Block until the source passes the last issued timestamp, if that is within the wait bound;
   * otherwise throw {@link ClockMovedBackwardsException} at once. The bound is per call: steps that
   * one call meets one after the other add up. IDs stay strictly increasing.
   */
  WAIT,
  /** Throw {@link ClockMovedBackwardsException} at once (Twitter's original behaviour). */
  FAIL,
  /**
   * Count the step in the layout's {@code clockback} field and issue on at the earlier time: IDs
   * stay unique but are not increasing across the step. Throws once the field is exhausted.
   */
  CLOCKBACK;

  /**
   * The policy of that name, case-insensitive: {@code wait}, {@code fail} or {@code clockback}.
   *
   * @throws InvalidSettingException for any other name
   */
  public static ClockPolicy named(String name) {
    for (ClockPolicy p : values()) {
      if (p.name().equalsIgnoreCase(name == null ? "" : name.trim())) {
        return p;
      }
    }
    throw new InvalidSettingException("clockPolicy", name, "wait, fail or clockback");
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
