package io.snowid.server;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.PreEncodedHttpField;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** Writes whole responses: status, content type, the fixed headers, the body in one write. */
final class Replies {
  static final HttpField TEXT =
      new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, "text/plain;charset=utf-8");
  static final HttpField JSON =
      new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, "application/json");
  static final HttpField PROMETHEUS =
      new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8");
  static final HttpField ALLOW_GET = new PreEncodedHttpField(HttpHeader.ALLOW, "GET");
  static final HttpField ALLOW_GET_HEAD = new PreEncodedHttpField(HttpHeader.ALLOW, "GET, HEAD");
  static final HttpField BEARER =
      new PreEncodedHttpField(HttpHeader.WWW_AUTHENTICATE, "Bearer realm=\"snowid\"");
  static final HttpField RETRY_AFTER = new PreEncodedHttpField(HttpHeader.RETRY_AFTER, "1");

  /** IDs must never come from a cache: every response says so. */
  private static final HttpField NO_STORE =
      new PreEncodedHttpField(HttpHeader.CACHE_CONTROL, "no-store");

  private static final HttpField NOSNIFF =
      new PreEncodedHttpField("X-Content-Type-Options", "nosniff");

  private static final HttpField[] NO_FIELDS = {};

  private Replies() {}

  /** Sends the body and returns the status, for metrics. */
  static int send(Response response, Callback callback, int status, HttpField type, byte[] body) {
    return send(response, callback, status, type, body, body.length);
  }

  static int send(
      Response response, Callback callback, int status, HttpField type, byte[] body, int length) {
    return send(response, callback, status, type, body, length, NO_FIELDS);
  }

  /**
   * Writes the response, once: for a request the router took ({@link Exchange}), only if it is
   * still there to answer ({@link Exchange#claim()}), else nothing and {@link Exchange#GONE}. A
   * write Jetty refuses (the request failed meanwhile) fails the request; no other response is
   * tried after it.
   */
  private static int send(
      Response response,
      Callback callback,
      int status,
      HttpField type,
      byte[] body,
      int length,
      HttpField[] extra) {
    if (callback instanceof Exchange exchange && !exchange.claim()) {
      return Exchange.GONE;
    }
    try {
      response.setStatus(status);
      HttpFields.Mutable headers = response.getHeaders();
      for (HttpField field : extra) {
        headers.put(field);
      }
      headers.add(type); // a response starts without these: add, no search
      headers.add(NO_STORE);
      headers.add(NOSNIFF);
      headers.add(HttpHeader.CONTENT_LENGTH, length);
      response.write(true, ByteBuffer.wrap(body, 0, length), callback);
      return status;
    } catch (RuntimeException e) {
      callback.failed(e);
      return Exchange.GONE;
    }
  }

  static int json(Response response, Callback callback, int status, String json) {
    return send(response, callback, status, JSON, json.getBytes(StandardCharsets.UTF_8));
  }

  /** {@code {"error": message}} with the status and any extra headers. */
  static int error(
      Response response, Callback callback, int status, String message, HttpField... extra) {
    byte[] body = Json.error(message).getBytes(StandardCharsets.UTF_8);
    return send(response, callback, status, JSON, body, body.length, extra);
  }
}
