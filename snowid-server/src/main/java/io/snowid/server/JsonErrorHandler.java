package io.snowid.server;

import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Errors Jetty answers itself (a malformed request line, headers too large, an ambiguous URI, an
 * unsupported HTTP version, a request refused during shutdown): {@code {"error": reason phrase}} as
 * JSON, never Jetty's HTML page and never the exception's text; counted in the metrics under the
 * endpoint {@code rejected}. On a connection already closed nothing is written or counted: that is
 * what was left of a client that had gone, usually a request cut short.
 */
final class JsonErrorHandler extends ErrorHandler {
  private final ServiceMetrics metrics;

  JsonErrorHandler(ServiceMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    GuardedEndPoint endPoint = GuardedEndPoint.of(request);
    if (endPoint != null) {
      endPoint.headersReceived(); // as far as they go: the header timeout no longer runs
      if (!endPoint.isOpen()) {
        // the rest of what a client sent before its connection closed (a request cut short):
        // nobody to answer, and not a request refused
        callback.succeeded();
        return true;
      }
    }
    long begin = request.getBeginNanoTime();
    int status = response.getStatus();
    if (request.getAttribute(ERROR_STATUS) instanceof Integer code) {
      status = code;
    }
    if (status < 400 || status > 599) {
      status = 500;
    }
    String reason = HttpStatus.getMessage(status);
    Replies.error(response, callback, status, reason == null ? "error" : reason);
    metrics.record(Endpoint.REJECTED, status, begin == 0 ? 0 : System.nanoTime() - begin);
    return true;
  }
}
