package io.snowid;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

/**
 * The IDs a layout gives from one instant to another, both ends' time units included: a table keyed
 * by them answers {@code WHERE id BETWEEN first() AND last()} from its primary key ({@link
 * Layout#firstIdAt}, {@link Layout#lastIdAt}). {@code snowid range} and {@code GET /range} print
 * it.
 *
 * <p>Refusals name the setting {@code from} or {@code to} (a caller renames them in its own words:
 * {@code --from}, a query parameter): an end outside the layout's lifetime, {@code from} after
 * {@code to}, and the layout's own refusals (a wrapping layout) under the setting {@code layout}.
 */
public final class IdRange {
  /** The forms {@link #instant} reads, as an error names them. */
  public static final String INSTANT_FORMS =
      "an ISO-8601 instant (2026-11-27T08:00:00Z) or a date (2026-11-27)";

  // Instant.parse reads second 60 as the start of second 59 of the next minute, silently.
  private static final Pattern LEAP_SECOND = Pattern.compile(".*[Tt]\\d\\d:\\d\\d:60.*");

  private final Layout layout;
  private final Instant from;
  private final Instant to;
  private final long first;
  private final long last;

  private IdRange(Layout layout, Instant from, Instant to, long first, long last) {
    this.layout = layout;
    this.from = from;
    this.to = to;
    this.first = first;
    this.last = last;
  }

  /**
   * The range of {@code layout}'s IDs from {@code from} to {@code to}.
   *
   * @throws InvalidSettingException naming {@code from} or {@code to} for an end outside the
   *     layout's lifetime or {@code from} after {@code to}; naming {@code layout} for a layout
   *     without ranges (see {@link Layout#firstIdAt})
   */
  public static IdRange of(Layout layout, Instant from, Instant to) {
    if (from.isAfter(to)) {
      throw new InvalidSettingException("from", from, "an instant not after to (" + to + ")");
    }
    return new IdRange(
        layout, from, to, bound("from", from, layout, true), bound("to", to, layout, false));
  }

  private static long bound(String setting, Instant at, Layout layout, boolean first) {
    try {
      return first ? layout.firstIdAt(at) : layout.lastIdAt(at);
    } catch (InvalidSettingException e) {
      if (e.setting().equals("instant")) {
        throw new InvalidSettingException(setting, at, e.allowed());
      }
      throw e;
    }
  }

  /**
   * Reads an instant as a user writes it: ISO-8601 ({@code 2026-11-27T08:00:00Z}, any case) or a
   * date ({@code 2026-11-27}: its midnight, UTC). A leap second ({@code :60}) is refused rather
   * than read as the next minute's start.
   *
   * @param setting the name a refusal gives, e.g. {@code "from"}
   * @throws InvalidSettingException naming {@code setting}, the text and {@link #INSTANT_FORMS}
   */
  public static Instant instant(String setting, String text) {
    String v = text.trim();
    if (LEAP_SECOND.matcher(v).matches()) {
      throw new InvalidSettingException(setting, text, "no leap second (:60); " + INSTANT_FORMS);
    }
    try {
      return v.indexOf('T') < 0 && v.indexOf('t') < 0
          ? LocalDate.parse(v).atStartOfDay(ZoneOffset.UTC).toInstant()
          : Instant.parse(v);
    } catch (DateTimeParseException e) {
      throw new InvalidSettingException(setting, text, INSTANT_FORMS);
    }
  }

  public Layout layout() {
    return layout;
  }

  public Instant from() {
    return from;
  }

  public Instant to() {
    return to;
  }

  /** The smallest ID of the range: the first ID of {@code from}'s time unit. */
  public long first() {
    return first;
  }

  /** The largest ID of the range: the last ID of {@code to}'s time unit. */
  public long last() {
    return last;
  }

  /**
   * The JSON form, as {@code snowid range --json} and {@code GET /range} print it: {@code
   * {"from":"…","to":"…","first":"…","last":"…","layout":"…"}}, the IDs as unsigned decimal strings
   * (JavaScript would round them as numbers).
   */
  public String toJson() {
    return "{\"from\":\""
        + from
        + "\",\"to\":\""
        + to
        + "\",\"first\":\""
        + Long.toUnsignedString(first)
        + "\",\"last\":\""
        + Long.toUnsignedString(last)
        + "\",\"layout\":\""
        + layout.spec()
        + "\"}";
  }

  /** {@code id BETWEEN first AND last}, the SQL condition for the range. */
  @Override
  public String toString() {
    return "id BETWEEN " + Long.toUnsignedString(first) + " AND " + Long.toUnsignedString(last);
  }
}
