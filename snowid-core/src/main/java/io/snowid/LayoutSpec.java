package io.snowid;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads and prints layout spec strings. */
final class LayoutSpec {
  /*
   * The spec is deliberately strict: a layout decides how every key of a database is read back,
   * so a typo must fail loudly instead of silently shifting fields. Every rejection names the
   * part of the spec and what would be allowed there.
   */
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_-]{0,31}");
  private static final Pattern UNIT = Pattern.compile("([0-9]{1,9})(ms|s|m|h|d)");
  private static final long MAX_UNIT_MILLIS = 86_400_000L;

  /**
   * The names a spec gives a meaning to. Any other name is a node field, unless it is a near miss
   * of one of these ({@link InvalidSettingException#nearMiss}): {@code sequnce=12} would otherwise
   * be a node field, and {@code clockbak=2} a layout without clock-back bits.
   */
  private static final List<String> RESERVED =
      List.of(Layout.TIME, Layout.SEQUENCE, Layout.CLOCKBACK, "epoch", "unit", "wrap");

  private LayoutSpec() {}

  static Layout parse(String spec) {
    if (spec == null || spec.isBlank()) {
      throw new InvalidSettingException("layout", "\"" + spec + "\"", syntax());
    }
    List<String[]> bitFields = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    Long epoch = null;
    Long unit = null;
    boolean wrap = false;
    for (String rawPart : spec.split(",", -1)) {
      String part = rawPart.trim();
      int eq = part.indexOf('=');
      if (eq <= 0 || eq == part.length() - 1) {
        throw new InvalidSettingException("layout part", "\"" + part + "\"", syntax());
      }
      String name = part.substring(0, eq).trim().toLowerCase(Locale.ROOT);
      String value = part.substring(eq + 1).trim();
      if (!NAME.matcher(name).matches()) {
        throw new InvalidSettingException(
            "layout field name", "\"" + name + "\"", "a lower-case name matching " + NAME);
      }
      if (!seen.add(name)) {
        throw new InvalidSettingException("layout." + name, value, "each name at most once");
      }
      String meant = InvalidSettingException.nearMiss(name, RESERVED).orElse(null);
      if (meant != null) {
        throw new InvalidSettingException(
            "layout." + name,
            value,
            String.join(", ", RESERVED)
                + " or a node field named unlike them; "
                + name
                + ": did you mean "
                + meant
                + "?");
      }
      switch (name) {
        case "epoch" -> epoch = parseEpoch(value);
        case "unit" -> unit = parseUnit(value);
        case "wrap" -> wrap = parseWrap(value);
        default -> bitFields.add(new String[] {name, value});
      }
    }
    if (epoch == null) {
      // The fields' own mistakes first (a width that is no number, a missing time or sequence):
      // they say more than the missing epoch. Epoch 0 stands in only for that check.
      build(bitFields, 0, unit == null ? 1 : unit, wrap);
      throw new InvalidSettingException(
          "layout.epoch",
          "missing",
          "epoch= with an ISO-8601 instant, a date or Unix milliseconds (every spec needs one)");
    }
    return build(bitFields, epoch, unit == null ? 1 : unit, wrap);
  }

  private static Layout build(List<String[]> bitFields, long epoch, long unit, boolean wrap) {
    int total = 0;
    int[] widths = new int[bitFields.size()];
    for (int i = 0; i < widths.length; i++) {
      String name = bitFields.get(i)[0];
      String value = bitFields.get(i)[1];
      try {
        widths[i] = Integer.parseInt(value);
      } catch (NumberFormatException e) {
        throw new InvalidSettingException("layout." + name, value, "a bit width 1..63");
      }
      if (widths[i] < 1 || widths[i] > 63) {
        throw new InvalidSettingException("layout." + name, value, "a bit width 1..63");
      }
      total += widths[i];
    }
    int timeIndex = indexOf(bitFields, Layout.TIME);
    int sequenceIndex = indexOf(bitFields, Layout.SEQUENCE);
    int clockbackIndex = indexOf(bitFields, Layout.CLOCKBACK);
    if (timeIndex < 0 || sequenceIndex < 0) {
      throw new InvalidSettingException(
          "layout." + (timeIndex < 0 ? Layout.TIME : Layout.SEQUENCE),
          "missing",
          "every layout has a time and a sequence field");
    }
    if (total > 64 || (total == 64 && timeIndex != 0)) {
      throw new InvalidSettingException(
          "layout width",
          total + " bits",
          "at most 63 bits, or 64 when time is the most significant field");
    }
    if (sequenceIndex < timeIndex || (clockbackIndex >= 0 && clockbackIndex < timeIndex)) {
      throw new InvalidSettingException(
          "layout." + (sequenceIndex < timeIndex ? Layout.SEQUENCE : Layout.CLOCKBACK),
          "above time",
          "below the time field, so that IDs grow with time");
    }
    int timeBits = widths[timeIndex];
    long maxTime =
        (timeBits == 63 ? Long.MAX_VALUE : (1L << timeBits) - 1) >>> (total == 64 ? 1 : 0);
    try {
      Math.addExact(Math.addExact(epoch, Math.multiplyExact(maxTime, unit)), unit);
    } catch (ArithmeticException e) {
      throw new InvalidSettingException(
          "layout.time",
          timeBits,
          "a width whose last instant fits in Unix milliseconds with unit " + unit + "ms");
    }
    List<Layout.Field> fields = new ArrayList<>();
    int shift = total;
    for (int i = 0; i < widths.length; i++) {
      shift -= widths[i];
      fields.add(new Layout.Field(bitFields.get(i)[0], widths[i], shift));
    }
    return new Layout(fields, epoch, unit, wrap);
  }

  private static int indexOf(List<String[]> fields, String name) {
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i)[0].equals(name)) {
        return i;
      }
    }
    return -1;
  }

  static long parseEpoch(String value) {
    long millis;
    try {
      if (value.chars().allMatch(Character::isDigit)) {
        millis = Long.parseLong(value);
      } else if (value.length() == 10) {
        millis = LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
      } else {
        millis = Instant.parse(value).toEpochMilli();
      }
    } catch (DateTimeException | NumberFormatException | ArithmeticException e) {
      throw new InvalidSettingException(
          "layout.epoch",
          value,
          "an ISO-8601 instant (2010-11-04T01:42:54.657Z), a date (2016-05-20) or Unix"
              + " milliseconds");
    }
    long now = System.currentTimeMillis();
    if (millis > now) {
      throw new InvalidSettingException(
          "layout.epoch", value, "an instant not after now (" + Instant.ofEpochMilli(now) + ")");
    }
    return millis;
  }

  private static boolean parseWrap(String value) {
    if (!value.equals("true") && !value.equals("false")) {
      throw new InvalidSettingException("layout.wrap", value, "true or false");
    }
    return value.equals("true");
  }

  private static long parseUnit(String value) {
    String allowed = "a duration such as 1ms, 10ms, 1s, 1m, 1h or 1d, from 1ms to 1d";
    Matcher m = UNIT.matcher(value);
    if (!m.matches()) {
      throw new InvalidSettingException("layout.unit", value, allowed);
    }
    long per =
        switch (m.group(2)) {
          case "ms" -> 1;
          case "s" -> 1_000;
          case "m" -> 60_000;
          case "h" -> 3_600_000;
          default -> MAX_UNIT_MILLIS;
        };
    long millis = Long.parseLong(m.group(1)) * per; // at most 999,999,999 days: no overflow
    if (millis < 1 || millis > MAX_UNIT_MILLIS) {
      throw new InvalidSettingException("layout.unit", value, allowed);
    }
    return millis;
  }

  static String print(Layout layout) {
    StringBuilder sb = new StringBuilder();
    for (Layout.Field f : layout.fields()) {
      sb.append(f.name()).append('=').append(f.bits()).append(',');
    }
    long unit = layout.unitMillis();
    sb.append("epoch=").append(layout.epoch()).append(",unit=");
    sb.append(unit % 1000 == 0 ? (unit / 1000) + "s" : unit + "ms");
    if (layout.wraps()) {
      sb.append(",wrap=true");
    }
    return sb.toString();
  }

  private static String syntax() {
    return "comma-separated name=value, e.g. "
        + "time=41,datacenter=5,worker=5,sequence=12,epoch=2010-11-04T01:42:54.657Z,unit=1ms";
  }
}
