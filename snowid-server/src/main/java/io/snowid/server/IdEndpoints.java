package io.snowid.server;

import io.snowid.InvalidSettingException;
import io.snowid.Snowflake;
import io.snowid.codec.IdCodec;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** {@code GET /id} and {@code GET /ids?count=N}, each with an optional {@code format}. */
final class IdEndpoints {
  private final Snowflake generator;
  private final ServiceMetrics metrics;

  IdEndpoints(Snowflake generator, ServiceMetrics metrics) {
    this.generator = generator;
    this.metrics = metrics;
  }

  /** What {@link #id} returns, having answered nothing, when the ID must wait and may not. */
  static final int MUST_WAIT = 0;

  /**
   * One ID; with {@code mayWait} false, only if it can be issued at once, else {@link #MUST_WAIT}
   * and nothing is answered.
   */
  int id(Request request, Response response, Callback callback, boolean mayWait) {
    String raw = request.getHttpURI().getQuery();
    IdCodec codec = raw == null ? null : codec(Query.parse(raw, "format"));
    long id = mayWait ? generator.nextId() : generator.tryNextId();
    if (id == Snowflake.NO_ID) {
      return MUST_WAIT;
    }
    metrics.issued(1);
    return Replies.send(response, callback, 200, Replies.TEXT, IdText.line(id, codec));
  }

  int ids(Request request, Response response, Callback callback) {
    Query query = Query.parse(request.getHttpURI().getQuery(), "count", "format");
    int count = count(query.get("count"));
    IdCodec codec = codec(query);
    long[] ids = new long[count];
    generator.nextIds(ids);
    metrics.issued(count);
    byte[] body = new byte[IdText.capacity(count, codec)];
    int length = IdText.lines(ids, codec, body);
    return Replies.send(response, callback, 200, Replies.TEXT, body, length);
  }

  /** Decimal (null) unless {@code format} names another form. */
  private static IdCodec codec(Query query) {
    String name = query.get("format");
    if (name == null) {
      return null;
    }
    IdCodec codec = IdCodec.named(name);
    return codec == IdCodec.DECIMAL ? null : codec;
  }

  static int count(String value) {
    String allowed = "1.." + ServerConfig.MAX_COUNT;
    if (value == null) {
      throw new InvalidSettingException("count", "missing", allowed);
    }
    int n = 0;
    boolean valid = !value.isEmpty() && value.length() <= 6;
    for (int i = 0; valid && i < value.length(); i++) {
      char c = value.charAt(i);
      valid = c >= '0' && c <= '9';
      n = n * 10 + (c - '0');
    }
    if (!valid || n < 1 || n > ServerConfig.MAX_COUNT) {
      throw new InvalidSettingException("count", Query.shorten(value), allowed);
    }
    return n;
  }
}
