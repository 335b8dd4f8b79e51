package io.snowid.node.internal;

import java.util.Locale;

/**
 * How likely a number of processes that each choose one of {@code values} node ids at random are to
 * share one: the birthday bound, exact. For the WARN of a choice that is only as good as chance.
 */
final class Collisions {
  private Collisions() {}

  /**
   * The probability that some two of {@code n} independent uniform choices among {@code values}
   * agree.
   */
  static double probability(long values, int n) {
    double distinct = 1;
    for (int i = 1; i < n; i++) {
      distinct *= Math.max(0, 1 - (double) i / values);
    }
    return 1 - distinct;
  }

  /**
   * For a message: {@code "2 containers collide with probability 3.1%, 5 with 28%, 10 with 79%"};
   * {@code "any 2 containers collide"} when there is one value only.
   */
  static String describe(long values, String what) {
    if (values <= 1) {
      return "any 2 " + what + " collide";
    }
    return "2 "
        + what
        + " collide with probability "
        + percent(probability(values, 2))
        + ", 5 with "
        + percent(probability(values, 5))
        + ", 10 with "
        + percent(probability(values, 10));
  }

  static String percent(double p) {
    double pct = p * 100;
    if (pct >= 99.95 && p < 1) {
      return ">99.9%";
    }
    if (pct >= 10 || pct == 0) {
      return String.format(Locale.ROOT, "%.0f%%", pct);
    }
    if (pct >= 0.1) {
      return String.format(Locale.ROOT, "%.1f%%", pct);
    }
    return String.format(Locale.ROOT, "%.2g%%", pct);
  }
}
