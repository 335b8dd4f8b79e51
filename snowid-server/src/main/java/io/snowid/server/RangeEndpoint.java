package io.snowid.server;

import io.snowid.IdRange;
import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import java.time.Instant;
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

  private final Layout layout;

  RangeEndpoint(Layout layout) {
    this.layout = layout;
  }

  int range(Request request, Response response, Callback callback) {
    Query query = Query.parse(request.getHttpURI().getQuery(), "from", "to", "layout");
    Layout given = query.read("layout", Layout::preset, EXAMPLE + "&layout=discord");
    IdRange range;
    try {
      range =
          IdRange.of(given == null ? layout : given, instant(query, "from"), instant(query, "to"));
    } catch (InvalidSettingException e) {
      throw HttpError.badRequest(
          e.setting().equals("from") || e.setting().equals("to")
              ? "query parameter "
                  + e.setting()
                  + " = "
                  + Query.shorten(e.value())
                  + " is invalid; allowed: "
                  + e.allowed()
              : e.getMessage());
    }
    return Replies.json(response, callback, 200, range.toJson());
  }

  private static Instant instant(Query query, String name) {
    String value = query.get(name);
    if (value == null) {
      throw HttpError.badRequest(
          "query parameter "
              + name
              + " is missing; allowed: "
              + IdRange.INSTANT_FORMS
              + " (e.g. "
              + EXAMPLE
              + ")");
    }
    return IdRange.instant(name, value);
  }
}
