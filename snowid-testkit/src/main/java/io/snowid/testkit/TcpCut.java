package io.snowid.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP forwarder to a local port that a test can cut, as a network partition would: after {@link
 * #cut()} every connection through it is closed and new ones are refused.
 */
public final class TcpCut implements AutoCloseable {
  private final ServerSocket server;
  private final int target;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();

  /** Forwards a new local port to {@code target} on 127.0.0.1. */
  public TcpCut(int target) throws IOException {
    this.target = target;
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::accept, "tcp-cut " + server.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** The port to connect to instead of the target's. */
  public int port() {
    return server.getLocalPort();
  }

  private void accept() {
    try {
      while (true) {
        Socket client = server.accept();
        Socket upstream;
        try {
          upstream = new Socket(InetAddress.getLoopbackAddress(), target);
        } catch (IOException e) {
          client.close();
          continue;
        }
        sockets.add(client);
        sockets.add(upstream);
        pipe(client, upstream);
        pipe(upstream, client);
      }
    } catch (IOException e) {
      // cut
    }
  }

  private void pipe(Socket from, Socket to) {
    Thread t =
        new Thread(
            () -> {
              byte[] buf = new byte[8192];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buf)) >= 0; ) {
                  out.write(buf, 0, n);
                  out.flush();
                }
              } catch (IOException e) {
                // either side closed
              } finally {
                closeQuietly(from);
                closeQuietly(to);
              }
            },
            "tcp-cut pipe");
    t.setDaemon(true);
    t.start();
  }

  /** Closes every connection and refuses new ones. */
  public void cut() {
    closeQuietly(server);
    sockets.forEach(TcpCut::closeQuietly);
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      // closing anyway
    }
  }

  @Override
  public void close() {
    cut();
  }
}
