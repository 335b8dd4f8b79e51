package io.snowid.zookeeper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A standalone ZooKeeper server of this test's own, in a child process, from the Debian binaries
 * the shared one runs ({@code /usr/share/java/zookeeper.jar}, 3.8), on a port and data directory of
 * its own: a test may stop, start and restore it without touching the shared server.
 */
final class PrivateZooKeeper implements AutoCloseable {
  private static final String CLASS_PATH = "/etc/zookeeper/conf:/usr/share/java/zookeeper.jar";

  private final Path dir;
  private final Path data;
  private final int port;
  private final int tickMillis;
  private Process process;

  private PrivateZooKeeper(Path dir, int port, int tickMillis) {
    this.dir = dir;
    this.data = dir.resolve("data");
    this.port = port;
    this.tickMillis = tickMillis;
  }

  /**
   * Starts a server with ZooKeeper's default-sized ticks of the shared one (2 s: 4–40 s sessions).
   */
  static PrivateZooKeeper start(Path dir) {
    return start(dir, 2_000);
  }

  static PrivateZooKeeper start(Path dir, int tickMillis) {
    PrivateZooKeeper zk = new PrivateZooKeeper(dir, freePort(), tickMillis);
    zk.start();
    return zk;
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  int port() {
    return port;
  }

  String connect() {
    return "127.0.0.1:" + port;
  }

  /** Starts the server (again) on its port and data; returns once it serves requests. */
  void start() {
    try {
      Files.createDirectories(data);
      process =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-Xmx128m",
                  "-Dzookeeper.admin.enableServer=false",
                  "-cp",
                  CLASS_PATH,
                  "org.apache.zookeeper.server.ZooKeeperServerMain",
                  Integer.toString(port),
                  data.toString(),
                  Integer.toString(tickMillis))
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("server.log").toFile()))
              .start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 200);
        s.setSoTimeout(1_000);
        s.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
        String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        if (answer.contains("Mode:")) {
          return; // it serves requests (bound, but loading its data, it answers otherwise)
        }
        sleep(100);
      } catch (IOException e) {
        if (!process.isAlive()) {
          throw new IllegalStateException("ZooKeeper on port " + port + " exited; see " + dir);
        }
        sleep(100);
      }
    }
    throw new IllegalStateException("ZooKeeper on port " + port + " did not start; see " + dir);
  }

  /** Stops the server (SIGKILL: what it wrote to its log stays, nothing else is done). */
  void stop() {
    if (process != null) {
      process.destroyForcibly();
      try {
        process.waitFor(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      process = null;
    }
  }

  /** Copies the data directory as it is now: a snapshot an operator could restore. */
  void copyDataTo(Path copy) {
    copyTree(data, copy);
  }

  /** Replaces the data directory by a copy (the server stopped). */
  void restoreDataFrom(Path copy) {
    deleteTree(data);
    copyTree(copy, data);
  }

  private static void copyTree(Path from, Path to) {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : files.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteTree(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> files = Files.walk(root)) {
      List<Path> all = files.sorted(Comparator.reverseOrder()).toList();
      for (Path p : all) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    stop();
  }
}
