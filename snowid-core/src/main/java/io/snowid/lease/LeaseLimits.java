package io.snowid.lease;

import io.snowid.Durations;
import io.snowid.InvalidSettingException;
import java.time.Duration;

/**
 * The bounds every holder of a namespace is held to: its lease time at most {@code maxTtl}, its
 * allowed clock skew at most {@code maxSkew}. A network coordinator records them with the namespace
 * and refuses a holder that asks with others while holders of the namespace are live. After the
 * registry lost or rolled back its state, its records are gone, and these bounds alone say how long
 * a holder it forgot may still issue: a newcomer starts after {@link #lostUntilMillis} (docs/
 * design.md, "A registry that lost its state").
 *
 * @param maxTtl the longest lease time a holder may use; default 30 s, allowed 1 s to 1 h
 * @param maxSkew the largest clock skew a holder may allow; default 5 s, allowed 0 to 1 min
 */
public record LeaseLimits(Duration maxTtl, Duration maxSkew) {
  static final Duration MIN_TTL = Duration.ofSeconds(1);
  static final Duration MAX_TTL = Duration.ofHours(1);
  static final Duration MAX_SKEW = Duration.ofMinutes(1);

  /** 30 s and 5 s: after a loss, a newcomer waits at most 41 s. */
  public static final LeaseLimits DEFAULT =
      new LeaseLimits(Duration.ofSeconds(30), Duration.ofSeconds(5));

  /** Added to every wait after a loss: rounding of the clocks' milliseconds, and call latency. */
  public static final Duration SLACK = Duration.ofSeconds(1);

  /**
   * @throws InvalidSettingException naming maxTtl or maxSkew and its allowed range
   */
  public LeaseLimits {
    if (maxTtl.compareTo(MIN_TTL) < 0 || maxTtl.compareTo(MAX_TTL) > 0) {
      throw new InvalidSettingException("maxTtl", maxTtl, "1s..1h");
    }
    if (maxSkew.isNegative() || maxSkew.compareTo(MAX_SKEW) > 0) {
      throw new InvalidSettingException("maxSkew", maxSkew, "0s..1m");
    }
  }

  /**
   * The ID time after which a newcomer may issue when the registry's state for the namespace began
   * at {@code sinceMillis} (the registry's clock), knowing nothing of the holders before: {@code
   * since + maxTtl + maxSkew + 1 s}. A holder the registry forgot renewed at most at {@code since}
   * and issues until its deadline, at most {@code maxTtl} later, on a clock at most {@code maxSkew}
   * ahead of the registry's.
   */
  public long lostUntilMillis(long sinceMillis) {
    return sinceMillis + maxTtl.toMillis() + maxSkew.toMillis() + SLACK.toMillis();
  }

  /**
   * The longest a newcomer waits after a loss: {@code maxTtl + 2 × maxSkew + 1 s}, its own clock
   * being up to {@code maxSkew} behind the registry's. The default {@code startWait}.
   */
  public Duration lossWait() {
    return maxTtl.plus(maxSkew).plus(maxSkew).plus(SLACK);
  }

  /** The larger of each bound: what covers holders of either. */
  public LeaseLimits max(LeaseLimits other) {
    return new LeaseLimits(
        maxTtl.compareTo(other.maxTtl) >= 0 ? maxTtl : other.maxTtl,
        maxSkew.compareTo(other.maxSkew) >= 0 ? maxSkew : other.maxSkew);
  }

  /** For messages: {@code maxTtl 30s, maxSkew 5s}. */
  @Override
  public String toString() {
    return "maxTtl " + text(maxTtl) + ", maxSkew " + text(maxSkew);
  }

  /**
   * A duration as the lease options write it: {@code 30s}, {@code 500ms}, {@code 2m}, {@code 1h}
   * ({@link Durations#format}).
   */
  public static String text(Duration d) {
    return Durations.format(d);
  }
}
