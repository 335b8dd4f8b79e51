package io.snowid;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as people write them, the one form snowid prints and reads: {@code 250ms}, {@code
 * 1.5s}, {@code 34m57s}, {@code 2h}, {@code 3d4h}. A duration is one or more terms of a number and
 * a unit ({@code d}, {@code h}, {@code m}, {@code s}, {@code ms}), larger units first; only the
 * last term may have a fraction. What {@link #format} prints for a duration that is not negative,
 * {@link #parse} reads back.
 */
public final class Durations {
  private static final Pattern TERM =
      Pattern.compile("([0-9]{1,12})(?:\\.([0-9]{1,9}))?(ms|d|h|m|s)");
  private static final String[] UNITS = {"d", "h", "m", "s"};
  private static final long[] UNIT_SECONDS = {86_400, 3_600, 60, 1};

  private Durations() {}

  /**
   * {@code d} for a person: under a second in milliseconds ({@code 250ms}, {@code 0.5ms}), under a
   * minute in seconds to the millisecond ({@code 1.5s}, {@code 57.152s}), longer in whole units
   * down to the second ({@code 34m57s}, {@code 2h}, {@code 3d4h}); negative with a {@code -}.
   */
  public static String format(Duration d) {
    if (d.isNegative()) {
      return "-" + format(d.negated());
    }
    if (d.isZero()) {
      return "0s";
    }
    if (d.compareTo(Duration.ofSeconds(1)) < 0) {
      return decimal(d.toNanos(), 1_000_000) + "ms";
    }
    if (d.compareTo(Duration.ofMinutes(1)) < 0) {
      return decimal(d.toMillis(), 1_000) + "s";
    }
    StringBuilder sb = new StringBuilder();
    long left = d.toSeconds();
    for (int i = 0; i < UNITS.length; i++) {
      long n = left / UNIT_SECONDS[i];
      left %= UNIT_SECONDS[i];
      if (n > 0) {
        sb.append(n).append(UNITS[i]);
      }
    }
    return sb.toString();
  }

  /** {@code value / per}, with as many decimals as it needs up to three. */
  private static String decimal(long value, long per) {
    BigDecimal v =
        BigDecimal.valueOf(value).divide(BigDecimal.valueOf(per)).setScale(3, RoundingMode.DOWN);
    return v.stripTrailingZeros().toPlainString();
  }

  /**
   * Reads a duration written as {@link #format} prints it, ignoring case.
   *
   * @return empty if {@code text} is no such duration
   */
  public static Optional<Duration> parse(String text) {
    String s = text.trim().toLowerCase(Locale.ROOT);
    Matcher m = TERM.matcher(s);
    Duration total = Duration.ZERO;
    int at = 0;
    int lastRank = -1;
    boolean fraction = false;
    while (at < s.length()) {
      if (fraction || !m.find(at) || m.start() != at) {
        return Optional.empty();
      }
      int rank = rank(m.group(3));
      if (rank <= lastRank) {
        return Optional.empty(); // units in decreasing order, each once
      }
      lastRank = rank;
      fraction = m.group(2) != null;
      BigDecimal n = new BigDecimal(m.group(1) + (fraction ? "." + m.group(2) : ""));
      BigDecimal nanos = n.multiply(BigDecimal.valueOf(nanosOf(m.group(3))));
      try {
        total = total.plusNanos(nanos.setScale(0, RoundingMode.DOWN).longValueExact());
      } catch (ArithmeticException e) {
        return Optional.empty();
      }
      at = m.end();
    }
    return at == 0 ? Optional.empty() : Optional.of(total);
  }

  private static int rank(String unit) {
    return switch (unit) {
      case "d" -> 0;
      case "h" -> 1;
      case "m" -> 2;
      case "s" -> 3;
      default -> 4;
    };
  }

  private static long nanosOf(String unit) {
    return switch (unit) {
      case "d" -> 86_400_000_000_000L;
      case "h" -> 3_600_000_000_000L;
      case "m" -> 60_000_000_000L;
      case "s" -> 1_000_000_000L;
      default -> 1_000_000L;
    };
  }
}
