package io.snowid.torture;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.zookeeper.server.persistence.FileTxnLog;

/**
 * A private ZooKeeper of the run: the machine's ZooKeeper (Debian {@code zookeeper}, {@code
 * /usr/share/java/zookeeper.jar}) as a standalone {@code ZooKeeperServerMain} in a JVM of its own,
 * with a data directory of the run. Its transaction log, read after the run, gives the holds
 * ({@link ZooKeeperHolds}).
 */
final class ZooKeeperRegistry implements Registry {
  /*
   * Sessions. minSessionTimeout and maxSessionTimeout are set outright (200 ms ticks, 400 ms to
   * 120 s), so whatever session timeout the coordinator asks for a run's lease time is granted as
   * asked: the 2 and 20 ticks of the defaults would bound it by the tick.
   *
   * Restart: SIGKILL and a start on the same data. ZooKeeper writes every transaction to its log
   * and fsyncs it before it answers (forceSync), so it comes back with all it acknowledged, and
   * with the sessions it had, which then expire unless their clients come back in time.
   *
   * Rollback. Snapshots are off during the run (snapCount of 10^8; ZooKeeper still writes one
   * after each start, of exactly the state it loaded), so the data directory is a snapshot of the
   * start plus the log of every transaction since. A copy of the state at an instant is then just
   * the last transaction ordered by then (the Zxid of the four-letter word srvr): the log cut
   * after that transaction is the state ZooKeeper had at that instant, byte for byte what a
   * backup taken then would restore. The rollback stops the server, keeps the directory as it
   * was (its log is history the holds must read), truncates the log after that transaction with
   * ZooKeeper's own FileTxnLog.truncate (as a follower does on TRUNC), deletes the snapshots
   * written after it, and starts the server on the result. The sessions of that state come back
   * with it: a client still connected with one of them resumes it.
   */
  private static final Path ZOOKEEPER_JAR = Path.of("/usr/share/java/zookeeper.jar");
  private static final Path SLF4J_SIMPLE = Path.of("/usr/share/java/slf4j-simple.jar");
  private static final Pattern ZXID = Pattern.compile("Zxid: 0x([0-9a-fA-F]+)");

  private final Path dir;
  private final Path data;
  private final String host;
  private final int port;
  private final String options;
  private final Pids pids;
  private final List<Path> lifetimes = new ArrayList<>(); // data directories of rolled-back states
  private Process server;
  private String summary;

  ZooKeeperRegistry(Path dir, InetAddress bind, String options, Pids pids)
      throws IOException, InterruptedException {
    if (!Files.isReadable(ZOOKEEPER_JAR)) {
      throw new IOException(
          "ZooKeeper is not installed: no " + ZOOKEEPER_JAR + " (apt-get install zookeeper)");
    }
    this.dir = dir;
    this.data = dir.resolve("data");
    this.host = bind.getHostAddress();
    this.options = options;
    this.pids = pids;
    Files.createDirectories(data);
    try (ServerSocket s = new ServerSocket(0, 1, bind)) {
      this.port = s.getLocalPort();
    }
    Files.writeString(
        dir.resolve("zoo.cfg"),
        String.join(
            "\n",
            "tickTime=200",
            "minSessionTimeout=400",
            "maxSessionTimeout=120000",
            "dataDir=" + data,
            "clientPort=" + port,
            "clientPortAddress=" + host,
            "maxClientCnxns=0",
            "admin.enableServer=false",
            "4lw.commands.whitelist=srvr,ruok",
            "snapCount=100000000",
            "preAllocSize=1024",
            "forceSync=yes",
            ""));
    start();
  }

  @Override
  public String name() {
    return "zookeeper";
  }

  @Override
  public InetSocketAddress endpoint() {
    return new InetSocketAddress(host, port);
  }

  @Override
  public String uri(InetSocketAddress via, String instance) {
    return "zookeeper://"
        + via.getAddress().getHostAddress()
        + ":"
        + via.getPort()
        + "/torture?"
        + options
        + "&instance="
        + instance;
  }

  @Override
  public boolean restartable() {
    return true;
  }

  private void start() throws IOException, InterruptedException {
    String classPath = ZOOKEEPER_JAR + (Files.isReadable(SLF4J_SIMPLE) ? ":" + SLF4J_SIMPLE : "");
    server =
        ServerProcess.start(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-cp",
                classPath,
                "org.apache.zookeeper.server.ZooKeeperServerMain",
                dir.resolve("zoo.cfg").toString()),
            dir.resolve("zookeeper.log"),
            pids);
    ServerProcess.await(
        "ZooKeeper on " + host + ":" + port, server, () -> fourLetterWord("srvr") != null, 60);
  }

  /** The answer to a four-letter word, or null when the server does not answer. */
  private String fourLetterWord(String word) {
    try (Socket s = new Socket()) {
      s.connect(endpoint(), 2_000);
      s.setSoTimeout(5_000);
      OutputStream out = s.getOutputStream();
      out.write(word.getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      String answer = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return answer.startsWith("Zookeeper version") ? answer : null;
    } catch (IOException e) {
      return null;
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

  /** The last transaction ZooKeeper has ordered: its state now. */
  @Override
  public Snapshot snapshot() throws IOException {
    long at = Timeline.monoMicros() / 1000;
    String srvr = fourLetterWord("srvr");
    Matcher m = srvr == null ? null : ZXID.matcher(srvr);
    if (m == null || !m.find()) {
      throw new IOException("ZooKeeper did not tell its Zxid");
    }
    return new Snapshot(at, Long.parseLong(m.group(1), 16));
  }

  /** Stops the server, cuts its log after the snapshot's transaction, starts it. */
  @Override
  public void rollback(Snapshot snapshot) throws IOException {
    long zxid = (Long) snapshot.state();
    try {
      kill();
      Path kept = dir.resolve("lifetime-" + lifetimes.size());
      copy(data, kept);
      lifetimes.add(kept);
      try {
        cut(data.resolve("version-2"), zxid);
      } finally {
        start(); // also when the cut failed: the server never stays down
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted during a rollback", e);
    }
  }

  /** The log cut after {@code zxid}, and the snapshots written after it deleted. */
  private static void cut(Path logs, long zxid) throws IOException {
    try (FileTxnLog log = new FileTxnLog(logs.toFile())) {
      log.truncate(zxid);
    } catch (IOException e) {
      // srvr's Zxid is the last one assigned, which a SIGKILL can lose before it is logged
      throw new IOException(
          "transaction 0x" + Long.toHexString(zxid) + " is not in the log, nothing was cut", e);
    }
    try (Stream<Path> files = Files.list(logs)) {
      for (Path f : files.toList()) {
        String name = f.getFileName().toString();
        if (name.startsWith("snapshot.") && Long.parseLong(name.substring(9), 16) > zxid) {
          Files.delete(f);
        }
      }
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> all = Files.walk(from)) {
      for (Path p : all.toList()) {
        Files.copy(p, to.resolve(from.relativize(p).toString()));
      }
    }
  }

  @Override
  public void close() {
    ServerProcess.stop(server, 10);
  }

  @Override
  public List<Hold> stopAndReadHolds(Timeline timeline) throws IOException {
    close();
    List<Path> all = new ArrayList<>(lifetimes);
    all.add(data);
    ZooKeeperHolds holds = new ZooKeeperHolds(timeline);
    for (Path lifetime : all) {
      holds.read(lifetime.resolve("version-2"));
    }
    summary = holds.summary();
    return holds.holds();
  }

  @Override
  public String holdsSource() {
    return "ZooKeeper's transaction log: [create, delete or session close] of each ephemeral lease"
        + " node, by ZooKeeper's clock"
        + (summary == null ? "" : " (" + summary + ")");
  }
}
