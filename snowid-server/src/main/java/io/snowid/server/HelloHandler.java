package io.snowid.server;

import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** {@code hello} on every request: the ceiling the ID endpoints are measured against. */
final class HelloHandler extends Handler.Abstract.NonBlocking {
  private static final byte[] HELLO = "hello\n".getBytes(StandardCharsets.US_ASCII);

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    Replies.send(response, callback, 200, Replies.TEXT, HELLO);
    return true;
  }
}
