package io.snowid.torture;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One host's way to the registry: a TCP relay on the registry's address that forwards to the
 * registry, delaying every chunk of bytes, both ways, by the delay in force when it was read.
 */
final class DelayRelay implements AutoCloseable {
  /*
   * Why a relay and not `tc qdisc … netem delay`: the kernel here has no sch_netem
   * (CONFIG_NET_SCH_NETEM is not set), and iptables cannot delay. A relay per host delays that
   * host's traffic to the registry alone, keeps the byte order (as netem does for one TCP
   * stream), and passes connection closes on, so a restarted registry still looks restarted.
   */
  private final ServerSocket server;
  private final InetSocketAddress target;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private volatile long delayNanos;

  DelayRelay(InetAddress bind, InetSocketAddress target) throws IOException {
    this.server = new ServerSocket(0, 50, bind);
    this.target = target;
    Thread acceptor = new Thread(this::accept, "relay " + server.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  InetSocketAddress address() {
    return new InetSocketAddress(server.getInetAddress(), server.getLocalPort());
  }

  void delay(long millis) {
    delayNanos = TimeUnit.MILLISECONDS.toNanos(millis);
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        Socket upstream = new Socket();
        try {
          upstream.connect(target, 5_000);
        } catch (IOException e) {
          client.close();
          continue;
        }
        client.setTcpNoDelay(true);
        upstream.setTcpNoDelay(true);
        sockets.add(client);
        sockets.add(upstream);
        pipe(client, upstream);
        pipe(upstream, client);
      } catch (IOException e) {
        // closed, or one connection failed: go on accepting until closed
      }
    }
  }

  /** A chunk to deliver at a time, or the end of the stream (data null). */
  private record Chunk(long deliverAt, byte[] data) {}

  private void pipe(Socket from, Socket to) {
    BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
    Thread reader =
        new Thread(
            () -> {
              byte[] buf = new byte[16384];
              try (InputStream in = from.getInputStream()) {
                for (int n; (n = in.read(buf)) >= 0; ) {
                  queue.add(new Chunk(System.nanoTime() + delayNanos, Arrays.copyOf(buf, n)));
                }
              } catch (IOException e) {
                // closed
              }
              queue.add(new Chunk(System.nanoTime() + delayNanos, null));
            },
            "relay read");
    Thread writer =
        new Thread(
            () -> {
              try (OutputStream out = to.getOutputStream()) {
                while (true) {
                  Chunk c = queue.take();
                  for (long wait; (wait = c.deliverAt() - System.nanoTime()) > 0; ) {
                    LockSupport.parkNanos(wait);
                  }
                  if (c.data() == null) {
                    break;
                  }
                  out.write(c.data());
                  out.flush();
                }
              } catch (IOException e) {
                // the other side closed
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } finally {
                closeQuietly(from);
                closeQuietly(to);
                sockets.remove(from);
                sockets.remove(to);
              }
            },
            "relay write");
    reader.setDaemon(true);
    writer.setDaemon(true);
    reader.start();
    writer.start();
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
    closeQuietly(server);
    sockets.forEach(DelayRelay::closeQuietly);
  }
}
