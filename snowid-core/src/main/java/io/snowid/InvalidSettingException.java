package io.snowid;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * A setting (builder option, layout spec part, system property, environment variable) has a value
 * outside its allowed range. Thrown before anything is built or changed.
 */
public class InvalidSettingException extends SnowIdException {
  private static final long serialVersionUID = 1L;

  private final String setting;
  private final String value;
  private final String allowed;

  /**
   * @param setting the name the user wrote, e.g. {@code "worker"} or {@code "layout.epoch"}
   * @param value the offending value as the user wrote it
   * @param allowed the allowed range or form, e.g. {@code "0..31"}
   */
  public InvalidSettingException(String setting, Object value, String allowed) {
    super(setting + " = " + value + " is invalid; allowed: " + allowed);
    this.setting = setting;
    this.value = String.valueOf(value);
    this.allowed = allowed;
  }

  /** A setting refused with a sentence of its own instead of the "allowed:" form. */
  protected InvalidSettingException(String setting, Object value, String allowed, String message) {
    super(message);
    this.setting = setting;
    this.value = String.valueOf(value);
    this.allowed = allowed;
  }

  public String setting() {
    return setting;
  }

  public String value() {
    return value;
  }

  public String allowed() {
    return allowed;
  }

  /**
   * The name of {@code known} that {@code given} most likely misspells, for a "did you mean …?"
   * hint. Names are compared ignoring case and counted in edits: a letter inserted, deleted or
   * replaced, or two neighbouring letters swapped. A near miss is at most two edits from a known
   * name, or one from a name of four letters or fewer (two edits make another word of those: {@code
   * site} is no misspelt {@code time}).
   *
   * @param given a name as the user wrote it
   * @param known the names that are allowed there
   * @return the nearest near miss (of equally near ones the first), or empty if there is none or
   *     {@code given} is one of {@code known} exactly
   */
  public static Optional<String> nearMiss(String given, Collection<String> known) {
    if (given == null || known.contains(given)) {
      return Optional.empty();
    }
    String g = given.toLowerCase(Locale.ROOT);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String name : known) {
      if (Math.abs(name.length() - g.length()) > 2) {
        continue; // more than two edits
      }
      int d = distance(g, name.toLowerCase(Locale.ROOT));
      if (d <= (name.length() <= 4 ? 1 : 2) && d < bestDistance) {
        best = name;
        bestDistance = d;
      }
    }
    return Optional.ofNullable(best);
  }

  /** Edits from {@code a} to {@code b}, neighbours swapped counting one (optimal alignment). */
  private static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      for (int j = 0; j <= b.length(); j++) {
        if (i == 0 || j == 0) {
          d[i][j] = i + j;
          continue;
        }
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
