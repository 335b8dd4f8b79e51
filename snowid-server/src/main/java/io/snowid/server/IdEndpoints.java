package io.snowid.server;

import io.snowid.Durations;
import io.snowid.Snowflake;
import io.snowid.codec.IdCodec;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;

/**
 * {@code GET /id} and {@code GET /ids?count=N}, each with an optional {@code format}.
 *
 * <p>A request that may wait for its IDs reserves them only while its client is still connected,
 * and only within the cap on IDs reserved ahead ({@link ReservedAhead}): beyond it, 429 at once. A
 * batch is generated only within the cap on response bytes not yet sent ({@link Unsent}).
 */
final class IdEndpoints {
  private final Snowflake generator;
  private final ServiceMetrics metrics;
  private final ReservedAhead reservedAhead;
  private final Unsent unsent;

  IdEndpoints(
      Snowflake generator, ServiceMetrics metrics, ReservedAhead reservedAhead, Unsent unsent) {
    this.generator = generator;
    this.metrics = metrics;
    this.reservedAhead = reservedAhead;
    this.unsent = unsent;
  }

  /** What {@link #id} returns, having answered nothing, when the ID must wait and may not. */
  static final int MUST_WAIT = 0;

  /**
   * One ID; with {@code mayWait} false, only if it can be issued at once, else {@link #MUST_WAIT}
   * and nothing is answered.
   */
  int id(Request request, Response response, Exchange exchange, boolean mayWait) {
    String raw = request.getHttpURI().getQuery();
    IdCodec codec = raw == null ? null : codec(Query.parse(raw, "format"), "/id?format=hex");
    long id = generator.tryNextId();
    if (id == Snowflake.NO_ID) {
      if (!mayWait) {
        return MUST_WAIT;
      }
      if (!exchange.connected()) {
        return exchange.gone();
      }
      if (!reservedAhead.tryTake(1)) {
        return tooMuchAhead(response, exchange);
      }
      try {
        id = generator.nextId();
      } finally {
        reservedAhead.give(1);
      }
    }
    metrics.issued(1);
    return Replies.send(response, exchange, 200, Replies.TEXT, IdText.line(id, codec));
  }

  int ids(Request request, Response response, Exchange exchange) {
    Query query = Query.parse(request.getHttpURI().getQuery(), "count", "format");
    int count = count(query.get("count"));
    IdCodec codec = codec(query, "/ids?count=10&format=hex");
    if (!exchange.connected()) {
      return exchange.gone();
    }
    int capacity = IdText.capacity(count, codec);
    if (!unsent.tryTake(capacity)) {
      return tooMuchUnsent(response, exchange);
    }
    exchange.holdsUnsent(unsent, capacity);
    if (!reservedAhead.tryTake(count)) {
      return tooMuchAhead(response, exchange);
    }
    long[] ids = new long[count];
    try {
      generator.nextIds(ids);
    } finally {
      reservedAhead.give(count);
    }
    metrics.issued(count);
    if (!exchange.connected()) {
      return exchange.gone(); // gone while it waited: the IDs are spent, not formatted or sent
    }
    byte[] body = new byte[capacity];
    int length = IdText.lines(ids, codec, body);
    return Replies.send(response, exchange, 200, Replies.TEXT, body, length);
  }

  /** 429: the requests waiting for their IDs already hold as many as the server allows. */
  private int tooMuchAhead(Response response, Exchange exchange) {
    return Replies.error(
        response,
        exchange,
        429,
        "too many IDs reserved ahead: the requests waiting for theirs hold "
            + reservedAhead.taken()
            + " of the "
            + reservedAhead.cap()
            + " this server allows ("
            + Durations.format(reservedAhead.capTime())
            + " of the node's capacity); retry shortly",
        Replies.RETRY_AFTER);
  }

  /** 429: responses not yet taken by their clients already hold as many bytes as allowed. */
  private int tooMuchUnsent(Response response, Exchange exchange) {
    return Replies.error(
        response,
        exchange,
        429,
        "too many IDs not yet read by their clients: "
            + unsent.taken()
            + " bytes of responses wait to be sent, of the "
            + unsent.cap()
            + " this server allows; retry shortly",
        Replies.RETRY_AFTER);
  }

  /** Decimal (null) unless {@code format} names another form. */
  private static IdCodec codec(Query query, String example) {
    IdCodec codec = query.read("format", IdCodec::named, example);
    return codec == IdCodec.DECIMAL ? null : codec;
  }

  static int count(String value) {
    String allowed =
        "allowed: 1.." + ServerConfig.MAX_COUNT + ", the number of IDs (e.g. /ids?count=10)";
    if (value == null) {
      throw HttpError.badRequest("query parameter count is missing; " + allowed);
    }
    int n = 0;
    boolean valid = !value.isEmpty() && value.length() <= 6;
    for (int i = 0; valid && i < value.length(); i++) {
      char c = value.charAt(i);
      valid = c >= '0' && c <= '9';
      n = n * 10 + (c - '0');
    }
    if (!valid || n < 1 || n > ServerConfig.MAX_COUNT) {
      throw HttpError.badRequest(
          "query parameter count = " + Query.shorten(value) + " is invalid; " + allowed);
    }
    return n;
  }
}
