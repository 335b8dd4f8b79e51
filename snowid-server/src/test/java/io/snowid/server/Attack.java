package io.snowid.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Hostile clients on raw sockets, and what the server shows of them (metrics, thread dumps). */
final class Attack {
  private Attack() {}

  /** A connected socket to the server. */
  static Socket connect(SnowIdServer server) {
    Socket s = new Socket();
    try {
      s.connect(new InetSocketAddress(server.uri().getHost(), server.port()), 10_000);
      return s;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Sends {@code count} copies of {@code request} in one go on a new connection, and closes it. */
  static void pipelineAndLeave(SnowIdServer server, String request, int count) {
    try (Socket s = connect(server)) {
      OutputStream out = s.getOutputStream();
      out.write(request.repeat(count).getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Whether the server closed {@code s}: true at end of stream (or a reset), false if nothing came
   * within the socket's timeout; throws if the server sent bytes.
   */
  static boolean closedByServer(Socket s) throws IOException {
    InputStream in = s.getInputStream();
    try {
      int b = in.read();
      if (b >= 0) {
        throw new AssertionError("the server answered on a connection it should have closed");
      }
      return true;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true; // reset
    }
  }

  /** Threads of this JVM parked in {@code Snowflake.reserve}, the generator's slow path. */
  static int threadsInReserve() {
    int n = 0;
    for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
      for (StackTraceElement frame : e.getValue()) {
        if (frame.getClassName().equals("io.snowid.Snowflake")
            && frame.getMethodName().equals("reserve")) {
          n++;
          break;
        }
      }
    }
    return n;
  }

  /** The value of a sample in /metrics (labels as written there, or none); NaN if absent. */
  static double metric(Http http, String nameAndLabels) {
    String body = http.get("metrics").body();
    Matcher m =
        Pattern.compile("(?m)^" + Pattern.quote(nameAndLabels) + " ([0-9.E+-]+|NaN)$")
            .matcher(body);
    return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
  }
}
