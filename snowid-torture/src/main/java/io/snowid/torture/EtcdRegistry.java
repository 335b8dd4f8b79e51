package io.snowid.torture;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * A private etcd of the run: the machine's {@code /usr/bin/etcd} (Debian {@code etcd-server}), one
 * member with a data directory of the run, its client URL on the registry's address and its peer
 * URL on loopback. The holds come from polling its keys ({@link EtcdHolds}).
 */
final class EtcdRegistry implements Registry {
  /*
   * Restart: SIGKILL and a start on the same data directory. etcd fsyncs its write-ahead log
   * before it answers a write, so it comes back with all it acknowledged, leases included (their
   * time left starts over when the member becomes leader again).
   *
   * Rollback, as an operator restores a backup: `etcdctl snapshot save` while it runs (etcd's
   * own consistent copy of its whole key space, leases and revisions), and for the rollback: stop,
   * `etcdctl snapshot restore` of an older copy into a new data directory with the same member
   * and cluster, start. Keys, leases and revisions all go back to that instant; the leases come
   * back with their whole time to live. A copy is saved at most every 2 s (etcdctl is a process
   * of its own) and kept 150 s, longer than the run keeps snapshots; the rolled-back data
   * directory is kept beside.
   */
  private static final Path ETCD = Path.of("/usr/bin/etcd");
  private static final Path ETCDCTL = Path.of("/usr/bin/etcdctl");
  private static final long SNAPSHOT_EVERY_MILLIS = 2_000;
  private static final long SNAPSHOT_KEPT_MILLIS = 150_000;

  private final Path dir;
  private final String host;
  private final int port;
  private final int peerPort;
  private final String options;
  private final Pids pids;
  private final ToLongFunction<String> ttlOfInstance;
  private final EtcdHolds holds;
  private final List<Snapshot> saved = new ArrayList<>();
  private Process server;
  private int lifetime;

  /**
   * @param ttlOfInstance the lease time each worker instance asks for (workers differ)
   */
  EtcdRegistry(
      Path dir, InetAddress bind, ToLongFunction<String> ttlOfInstance, String options, Pids pids)
      throws IOException, InterruptedException {
    if (!Files.isExecutable(ETCD)) {
      throw new IOException("etcd is not installed: no " + ETCD + " (apt-get install etcd-server)");
    }
    this.dir = dir;
    this.host = bind.getHostAddress();
    this.options = options;
    this.pids = pids;
    this.ttlOfInstance = ttlOfInstance;
    Files.createDirectories(dir.resolve("snapshots"));
    this.port = freePort(bind);
    this.peerPort = freePort(InetAddress.getLoopbackAddress());
    start();
    this.holds = new EtcdHolds(clientUrl(), "torture/");
  }

  private static int freePort(InetAddress bind) throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, bind)) {
      return s.getLocalPort();
    }
  }

  @Override
  public String name() {
    return "etcd";
  }

  @Override
  public InetSocketAddress endpoint() {
    return new InetSocketAddress(host, port);
  }

  @Override
  public String uri(InetSocketAddress via, String instance) {
    return "etcd://"
        + via.getAddress().getHostAddress()
        + ":"
        + via.getPort()
        + "?prefix=torture&"
        + options
        + "&instance="
        + instance;
  }

  @Override
  public boolean restartable() {
    return true;
  }

  @Override
  public String cannotRollBack() {
    return Files.isExecutable(ETCDCTL)
        ? null
        : "etcd's snapshots need etcdctl (apt-get install etcd-client)";
  }

  private String clientUrl() {
    return "http://" + host + ":" + port;
  }

  private String peerUrl() {
    return "http://127.0.0.1:" + peerPort;
  }

  private Path data() {
    return dir.resolve("data");
  }

  private void start() throws IOException, InterruptedException {
    server =
        ServerProcess.start(
            List.of(
                ETCD.toString(),
                "--name",
                "torture",
                "--data-dir",
                data().toString(),
                "--listen-client-urls",
                clientUrl(),
                "--advertise-client-urls",
                clientUrl(),
                "--listen-peer-urls",
                peerUrl(),
                "--initial-advertise-peer-urls",
                peerUrl(),
                "--initial-cluster",
                "torture=" + peerUrl(),
                "--initial-cluster-token",
                "torture"),
            dir.resolve("etcd.log"),
            pids);
    ServerProcess.await("etcd on " + host + ":" + port, server, this::healthy, 60);
  }

  private boolean healthy() {
    try {
      return EtcdHolds.health(clientUrl());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** SIGKILL, then a start on the same data directory. */
  @Override
  public void restart(long downMillis) throws IOException, InterruptedException {
    kill();
    Thread.sleep(downMillis);
    start();
  }

  private void kill() throws InterruptedException {
    if (server != null && server.isAlive()) {
      server.destroyForcibly();
      server.waitFor();
    }
  }

  /** {@code etcdctl snapshot save}, at most every 2 s (the newest copy otherwise). */
  @Override
  public synchronized Snapshot snapshot() throws IOException {
    long now = Timeline.monoMicros() / 1000;
    if (!saved.isEmpty()
        && saved.get(saved.size() - 1).monoMillis() > now - SNAPSHOT_EVERY_MILLIS) {
      return saved.get(saved.size() - 1);
    }
    while (!saved.isEmpty() && saved.get(0).monoMillis() < now - SNAPSHOT_KEPT_MILLIS) {
      Files.deleteIfExists((Path) saved.remove(0).state());
    }
    Path file = dir.resolve("snapshots").resolve(now + ".db");
    ServerProcess.Result r =
        etcdctl("--endpoints", clientUrl(), "snapshot", "save", file.toString());
    if (!r.ok()) {
      Files.deleteIfExists(file);
      throw new IOException("etcdctl snapshot save failed: " + r.output());
    }
    Snapshot s = new Snapshot(now, file);
    saved.add(s);
    return s;
  }

  /** Stops etcd, restores the snapshot into a new data directory, starts it. */
  @Override
  public synchronized void rollback(Snapshot snapshot) throws IOException {
    try {
      kill();
      // snowid-etcd asks etcd for the ttl in whole seconds, rounded up
      holds.promiseOpenHolds(
          Timeline.monoMicros(),
          instance -> (ttlOfInstance.applyAsLong(instance) + 999) / 1000 * 1_000_000);
      Files.move(data(), dir.resolve("data-" + lifetime++));
      ServerProcess.Result r =
          etcdctl(
              "snapshot",
              "restore",
              snapshot.state().toString(),
              "--name",
              "torture",
              "--data-dir",
              data().toString(),
              "--initial-cluster",
              "torture=" + peerUrl(),
              "--initial-advertise-peer-urls",
              peerUrl(),
              "--initial-cluster-token",
              "torture");
      if (!r.ok()) {
        throw new IOException("etcdctl snapshot restore failed: " + r.output());
      }
      start();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted during a rollback", e);
    }
  }

  private static ServerProcess.Result etcdctl(String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(ETCDCTL.toString()));
    command.addAll(List.of(args));
    try {
      return ServerProcess.runWith(command, java.util.Map.of("ETCDCTL_API", "3"), 60);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted: etcdctl", e);
    }
  }

  @Override
  public void close() {
    if (holds != null) {
      holds.close();
    }
    ServerProcess.stop(server, 10);
  }

  @Override
  public List<Hold> stopAndReadHolds(Timeline timeline) {
    holds.close(); // the last poll, while etcd still answers
    List<Hold> all = holds.holds();
    close();
    return all;
  }

  @Override
  public List<long[]> lossRecordsSeen() {
    return holds.lossRecords();
  }

  @Override
  public String holdsSource() {
    return holds.source();
  }
}
