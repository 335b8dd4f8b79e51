import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.PreEncodedHttpField;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The ceiling of bench/http.sh: {@code hello} on every path, on the stack of {@code snowid serve}.
 * Same Jetty (taken from snowid.jar), same thread pool, connector (one acceptor, one selector) and
 * HTTP configuration, same response writing as the server's {@code Replies.send}: status, the same
 * four headers, the body in one write, on the thread that parsed the request. Keep it in step with
 * snowid-server's {@code SnowIdServer} and {@code Replies}. Benchmark scaffolding only, so it lives
 * here rather than in the server's API. Run as a single source file:
 *
 * <pre>java -cp snowid-cli/target/snowid.jar bench/HelloServer.java PORT</pre>
 */
public final class HelloServer {
  private static final byte[] HELLO = "hello\n".getBytes(StandardCharsets.US_ASCII);
  private static final HttpField TEXT =
      new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, "text/plain;charset=utf-8");
  private static final HttpField NO_STORE =
      new PreEncodedHttpField(HttpHeader.CACHE_CONTROL, "no-store");
  private static final HttpField NOSNIFF =
      new PreEncodedHttpField("X-Content-Type-Options", "nosniff");

  private HelloServer() {}

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[0]);
    QueuedThreadPool pool = new QueuedThreadPool();
    pool.setName("snowid-http");
    Server jetty = new Server(pool);
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setSendXPoweredBy(false);
    http.setRequestHeaderSize(8 * 1024);
    ServerConnector connector = new ServerConnector(jetty, 1, 1, new HttpConnectionFactory(http));
    connector.setHost("127.0.0.1");
    connector.setPort(port);
    connector.setIdleTimeout(30_000);
    jetty.addConnector(connector);
    jetty.setHandler(
        new GracefulHandler(
            new Handler.Abstract.NonBlocking() {
              @Override
              public boolean handle(Request request, Response response, Callback callback) {
                response.setStatus(200);
                HttpFields.Mutable headers = response.getHeaders();
                headers.add(TEXT);
                headers.add(NO_STORE);
                headers.add(NOSNIFF);
                headers.add(HttpHeader.CONTENT_LENGTH, HELLO.length);
                response.write(true, ByteBuffer.wrap(HELLO), callback);
                return true;
              }
            }));
    jetty.start();
    System.out.println("hello serving on http://127.0.0.1:" + connector.getLocalPort() + "/");
    jetty.join();
  }
}
