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
 * #cut()} every connection through it is closed and new ones are refused; after {@link #silence()}
 * nothing through it is answered, and nothing is closed; between {@link #hold()} and {@link
 * #release()} what is sent waits, and is delivered at the release.
 */
public final class TcpCut implements AutoCloseable {
  private final ServerSocket server;
  private final int target;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final List<Link> links = new CopyOnWriteArrayList<>();
  private volatile boolean silent;
  private volatile boolean cut;
  private boolean held; // guarded by this

  /** One connection through the forwarder; silent for good once silenced. */
  private static final class Link {
    volatile boolean silent;
  }

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
        sockets.add(client);
        Link link = new Link();
        links.add(link);
        Socket upstream = null;
        if (!silent) {
          try {
            upstream = new Socket(InetAddress.getLoopbackAddress(), target);
          } catch (IOException e) {
            client.close();
            continue;
          }
          sockets.add(upstream);
        }
        if (cut) { // cut while this one was being accepted: cut() may not have seen it
          closeQuietly(client);
          if (upstream != null) {
            closeQuietly(upstream);
          }
          continue;
        }
        if (upstream == null) {
          link.silent = true;
          pipe(client, null, link); // taken, never answered
          continue;
        }
        pipe(client, upstream, link);
        pipe(upstream, client, link);
      }
    } catch (IOException e) {
      // cut
    }
  }

  /** Copies {@code from} to {@code to} (null: nowhere) until either closes; a silent link drops. */
  private void pipe(Socket from, Socket to, Link link) {
    Thread t =
        new Thread(
            () -> {
              byte[] buf = new byte[8192];
              try (InputStream in = from.getInputStream()) {
                OutputStream out =
                    to == null ? OutputStream.nullOutputStream() : to.getOutputStream();
                for (int n; (n = in.read(buf)) >= 0; ) {
                  awaitRelease();
                  if (!link.silent) {
                    out.write(buf, 0, n);
                    out.flush();
                  }
                }
              } catch (IOException e) {
                // either side closed
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } finally {
                closeQuietly(from);
                if (to != null) {
                  closeQuietly(to);
                }
              }
            },
            "tcp-cut pipe");
    t.setDaemon(true);
    t.start();
  }

  /**
   * Makes every connection through it silent for good, and those opened until {@link #heal()}: what
   * is sent on them is taken and never delivered, and nothing is closed or refused. So does a cut
   * that drops packets to a connection that stays in the kernel's retransmission back-off long
   * after the cut healed.
   */
  public void silence() {
    silent = true;
    links.forEach(l -> l.silent = true);
  }

  /** Connections opened from now on are forwarded; those silenced stay silent. */
  public void heal() {
    silent = false;
  }

  /**
   * Holds what is sent through it, both ways, on every connection (those opened until {@link
   * #release()} too): what it reads from now on is delivered at the release, as over a link that
   * stalled for a while (a read already under way may still be forwarded).
   */
  public synchronized void hold() {
    held = true;
  }

  /** Delivers what was held, and forwards again. */
  public synchronized void release() {
    held = false;
    notifyAll();
  }

  private synchronized void awaitRelease() throws InterruptedException {
    while (held) {
      wait();
    }
  }

  /** Connections opened through it so far. */
  public int connections() {
    return links.size();
  }

  /** Closes every connection and refuses new ones. */
  public void cut() {
    cut = true;
    closeQuietly(server);
    sockets.forEach(TcpCut::closeQuietly);
    release(); // what was held goes nowhere: its sockets are closed
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
