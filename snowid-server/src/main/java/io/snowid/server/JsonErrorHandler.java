package io.snowid.server;

import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Errors Jetty answers itself (a malformed request line, headers too large, an ambiguous URI, a
 * request refused during shutdown): {@code {"error": reason phrase}} as JSON, never Jetty's HTML
 * page and never the exception's text.
 */
final class JsonErrorHandler extends ErrorHandler {
  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    int status = response.getStatus();
    if (request.getAttribute(ERROR_STATUS) instanceof Integer code) {
      status = code;
    }
    if (status < 400 || status > 599) {
      status = 500;
    }
    String reason = HttpStatus.getMessage(status);
    Replies.error(response, callback, status, reason == null ? "error" : reason);
    return true;
  }
}
