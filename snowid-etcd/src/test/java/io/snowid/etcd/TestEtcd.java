package io.snowid.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.options.DeleteOption;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * etcd for the tests: the shared server at 127.0.0.1:2379 (never stopped: each test uses a key
 * prefix of its own and deletes it), or a private {@code /usr/bin/etcd} on free ports that a test
 * may stop, start again and give an older data directory.
 */
final class TestEtcd implements AutoCloseable {
  private static final TestEtcd SHARED = new TestEtcd(2379, 0, null);

  private final int port;
  private final int peerPort;
  private final Path dir;
  private Process server;

  private TestEtcd(int port, int peerPort, Path dir) {
    this.port = port;
    this.peerPort = peerPort;
    this.dir = dir;
  }

  static TestEtcd shared() {
    return SHARED;
  }

  /** Starts a private member (a one-member cluster) with its data in {@code dir}. */
  static TestEtcd startPrivate(Path dir) throws IOException, InterruptedException {
    TestEtcd e = new TestEtcd(freePort(), freePort(), dir);
    e.start();
    return e;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  String uri() {
    return "etcd://127.0.0.1:" + port;
  }

  int port() {
    return port;
  }

  Path dataDir() {
    return dir.resolve("data");
  }

  static String uniquePrefix() {
    return "t" + UUID.randomUUID().toString().substring(0, 8);
  }

  void start() throws IOException, InterruptedException {
    String client = "http://127.0.0.1:" + port;
    String peer = "http://127.0.0.1:" + peerPort;
    server =
        new ProcessBuilder(
                "/usr/bin/etcd",
                "--name",
                "snowid-test",
                "--data-dir",
                dataDir().toString(),
                "--listen-client-urls",
                client,
                "--advertise-client-urls",
                client,
                "--listen-peer-urls",
                peer,
                "--initial-advertise-peer-urls",
                peer,
                "--initial-cluster",
                "snowid-test=" + peer)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("etcd.log").toFile())
            .start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (System.nanoTime() < deadline) {
      if (answers()) {
        return;
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException(
        "etcd did not start on port " + port + ": " + Files.readString(dir.resolve("etcd.log")));
  }

  /** Whether the member answers a read now. */
  boolean answers() {
    try (Client c = client()) {
      c.getKVClient().get(bytes("probe")).get(1, TimeUnit.SECONDS);
      return true;
    } catch (Exception e) {
      return false;
    }
  }

  /** Adds the user (with the root role) and enables authentication, by etcdctl. */
  void enableAuth(String user, String password) throws IOException, InterruptedException {
    etcdctl("user", "add", user + ":" + password);
    if (!user.equals("root")) {
      etcdctl("user", "grant-role", user, "root");
    }
    etcdctl("auth", "enable");
  }

  /** Saves a snapshot of the running member to {@code file} (etcdctl snapshot save). */
  void snapshotSave(Path file) throws IOException, InterruptedException {
    etcdctl("snapshot", "save", file.toString());
  }

  /**
   * Replaces the (stopped) member's data by a restore of {@code file}: etcdctl snapshot restore
   * with a new cluster token, which gives the cluster a new id (the same token and members would
   * give the same id).
   */
  void snapshotRestore(Path file) throws IOException, InterruptedException {
    try (java.util.stream.Stream<Path> files = Files.walk(dataDir())) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
    String peer = "http://127.0.0.1:" + peerPort;
    etcdctl(
        "snapshot",
        "restore",
        file.toString(),
        "--data-dir",
        dataDir().toString(),
        "--name",
        "snowid-test",
        "--initial-cluster",
        "snowid-test=" + peer,
        "--initial-advertise-peer-urls",
        peer,
        "--initial-cluster-token",
        "restored-" + UUID.randomUUID());
  }

  private void etcdctl(String... args) throws IOException, InterruptedException {
    java.util.List<String> command = new java.util.ArrayList<>();
    command.add("etcdctl");
    command.add("--endpoints=http://127.0.0.1:" + port);
    command.addAll(java.util.List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().put("ETCDCTL_API", "3");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IllegalStateException("etcdctl " + String.join(" ", args) + ": " + out);
    }
  }

  void stop() throws InterruptedException {
    if (server != null) {
      server.destroy();
      if (!server.waitFor(10, TimeUnit.SECONDS)) {
        server.destroyForcibly().waitFor();
      }
      server = null;
    }
  }

  Client client() {
    return Client.builder().endpoints("http://127.0.0.1:" + port).build();
  }

  static ByteSequence bytes(String s) {
    return ByteSequence.from(s, StandardCharsets.UTF_8);
  }

  /** Marks a prefix as a registry in service: a write to it just now. */
  void putInService(String prefix) {
    try (Client c = client()) {
      c.getKVClient()
          .put(bytes(prefix + "/reg/written"), bytes(Long.toString(System.currentTimeMillis())))
          .get(5, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Deletes every key of a prefix. */
  void deletePrefix(String prefix) {
    try (Client c = client()) {
      c.getKVClient()
          .delete(bytes(prefix + "/"), DeleteOption.builder().isPrefix(true).build())
          .get(5, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() throws InterruptedException {
    stop();
  }
}
