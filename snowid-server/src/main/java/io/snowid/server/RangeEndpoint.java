package io.snowid.server;

import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.function.ToLongFunction;
import java.util.regex.Pattern;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * {@code GET /range?from=T&to=T}: the first and the last ID of the service's layout (or {@code
 * layout}) issued from {@code from} to {@code to}, both ends' time units included, for {@code WHERE
 * id BETWEEN first AND last} ({@link Layout#firstIdAt}, {@link Layout#lastIdAt}). {@code T} is an
 * ISO-8601 instant or a date (its midnight, UTC).
 */
final class RangeEndpoint {
  private static final String EXAMPLE =
      "/range?from=2026-11-27T00:00:00Z&to=2026-11-27T23:59:59.999Z";
  private static final String INSTANT = "an ISO-8601 instant or a date (e.g. " + EXAMPLE + ")";
  private static final Pattern LEAP_SECOND = Pattern.compile(".*[Tt]\\d\\d:\\d\\d:60.*");

  private final Layout layout;

  RangeEndpoint(Layout layout) {
    this.layout = layout;
  }

  int range(Request request, Response response, Callback callback) {
    Query query = Query.parse(request.getHttpURI().getQuery(), "from", "to", "layout");
    Layout given = query.read("layout", Layout::preset, EXAMPLE + "&layout=discord");
    Layout l = given == null ? layout : given;
    Instant from = instant(query, "from");
    Instant to = instant(query, "to");
    if (from.isAfter(to)) {
      throw HttpError.badRequest(
          "query parameter from = " + from + " is after to = " + to + " (e.g. " + EXAMPLE + ")");
    }
    long first = bound("from", from, l::firstIdAt);
    long last = bound("to", to, l::lastIdAt);
    String json =
        Json.object()
            .put("from", from.toString())
            .put("to", to.toString())
            .put("first", text(l, first))
            .put("last", text(l, last))
            .put("layout", l.spec())
            .toString();
    return Replies.json(response, callback, 200, json);
  }

  private static Instant instant(Query query, String name) {
    String value = query.get(name);
    if (value == null) {
      throw HttpError.badRequest("query parameter " + name + " is missing; allowed: " + INSTANT);
    }
    if (LEAP_SECOND.matcher(value).matches()) { // Instant.parse reads :60 as the start of :59
      throw HttpError.badRequest(
          "query parameter "
              + name
              + " = "
              + Query.shorten(value)
              + " is invalid; allowed: no"
              + " leap second (:60); "
              + INSTANT);
    }
    try {
      return value.indexOf('T') < 0 && value.indexOf('t') < 0
          ? LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant()
          : Instant.parse(value);
    } catch (DateTimeParseException e) {
      throw HttpError.badRequest(
          "query parameter "
              + name
              + " = "
              + Query.shorten(value)
              + " is invalid; allowed: "
              + INSTANT);
    }
  }

  /** The bound, or a 400 naming the query parameter when the layout has no IDs there. */
  private static long bound(String name, Instant at, ToLongFunction<Instant> idAt) {
    try {
      return idAt.applyAsLong(at);
    } catch (InvalidSettingException e) {
      throw HttpError.badRequest(
          e.setting().equals("instant")
              ? "query parameter " + name + " = " + at + " is invalid; allowed: " + e.allowed()
              : e.getMessage());
    }
  }

  private static String text(Layout l, long id) {
    return l.totalBits() == 64 ? Long.toUnsignedString(id) : Long.toString(id);
  }
}
