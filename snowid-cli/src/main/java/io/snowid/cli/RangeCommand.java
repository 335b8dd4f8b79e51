package io.snowid.cli;

import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.function.ToLongFunction;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code snowid range}: the first and last ID of a stretch of time, for {@code BETWEEN}. */
@Command(
    name = "range",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Show the first and the last ID a layout gives from --from to --to (both ends' time units"
          + " included), for WHERE id BETWEEN first AND last.",
      "Instants are ISO-8601 (2026-11-27T08:00:00Z) or dates (2026-11-27, its midnight UTC)."
    })
final class RangeCommand extends SnowIdSubcommand {
  private static final String INSTANT =
      "an ISO-8601 instant (2026-11-27T08:00:00Z) or a date (2026-11-27)";
  private static final Pattern LEAP_SECOND = Pattern.compile(".*[Tt]\\d\\d:\\d\\d:60.*");

  @Option(names = "--from", required = true, paramLabel = "T", description = "The first instant.")
  String from;

  @Option(
      names = "--to",
      required = true,
      paramLabel = "T",
      description = "The last instant (its time unit included).")
  String to;

  @Mixin LayoutOption layout;

  @Option(
      names = "--json",
      defaultValue = "${env:SNOWID_JSON:-false}",
      description = "One JSON object, as GET /range returns it (env SNOWID_JSON).")
  boolean json;

  @Override
  public Integer call() {
    Layout l = layout.get();
    Instant start = instant("--from", from);
    Instant end = instant("--to", to);
    if (start.isAfter(end)) {
      throw new InvalidSettingException("--from", from, "an instant not after --to " + end);
    }
    String first = text(l, bound("--from", from, start, l::firstIdAt));
    String last = text(l, bound("--to", to, end, l::lastIdAt));
    PrintWriter out = out();
    if (json) {
      out.println(
          "{\"from\":\""
              + start
              + "\",\"to\":\""
              + end
              + "\",\"first\":\""
              + first
              + "\",\"last\":\""
              + last
              + "\",\"layout\":\""
              + l.spec()
              + "\"}");
    } else {
      out.println("from   " + start);
      out.println("to     " + end);
      out.println("first  " + first);
      out.println("last   " + last);
      out.println("sql    id BETWEEN " + first + " AND " + last);
    }
    flushOut();
    return 0;
  }

  private static Instant instant(String option, String value) {
    String v = value.trim();
    if (LEAP_SECOND.matcher(v).matches()) { // Instant.parse reads :60 as the start of :59
      throw new InvalidSettingException(option, Errors.cut(v), "no leap second (:60); " + INSTANT);
    }
    try {
      return v.indexOf('T') < 0 && v.indexOf('t') < 0
          ? LocalDate.parse(v).atStartOfDay(ZoneOffset.UTC).toInstant()
          : Instant.parse(v);
    } catch (DateTimeParseException e) {
      throw new InvalidSettingException(option, Errors.cut(v), INSTANT);
    }
  }

  /** The bound, or the layout's refusal in the words of the option. */
  private static long bound(String option, String given, Instant at, ToLongFunction<Instant> idAt) {
    try {
      return idAt.applyAsLong(at);
    } catch (InvalidSettingException e) {
      if (e.setting().equals("instant")) {
        throw new InvalidSettingException(option, Errors.cut(given), e.allowed());
      }
      throw e;
    }
  }

  private static String text(Layout l, long id) {
    return l.totalBits() == 64 ? Long.toUnsignedString(id) : Long.toString(id);
  }
}
