package io.snowid.torture;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;

/**
 * A private {@code redis-server} of the run, with an append-only file: Redis's own log of every
 * write its lease scripts made, read after the run for the holds.
 */
final class RedisRegistry implements Registry {
  /*
   * Why the AOF. The lease scripts write each grant and renewal as one HSET of
   * "instance token expiresAt highWater base", with expiresAt = Redis's TIME + ttl (acquire.lua,
   * renew.lua), and Redis appends every write to the AOF (scripts are replicated by their effects)
   * before it answers. So the AOF holds every version of every record, none missed, each with the
   * exact Redis time it was written (expiresAt - ttl) and the time Redis would let it expire: the
   * holds are [written, expiresAt] of each version of a token, with the ttl that worker asked for. A release (token "-") carries no
   * time; the hold it ends is left reaching to its expiry, which can only hide a violation, never
   * invent one. Rewrites are off (auto-aof-rewrite-percentage 0), so nothing is compacted away.
   *
   * A rollback (FLUSHALL and RESTOREs in one MULTI) appears as those commands, not as HSETs: the
   * versions it puts back were read when first written.
   *
   * Restarts. `shutdown nosave` and a start with a new appenddirname: Redis comes back empty, as
   * a server without persistence does, and the old directory keeps the history up to the
   * shutdown (Redis flushes the AOF when it shuts down).
   */
  private final Path dir;
  private final String host;
  private final int port;
  private final ToLongFunction<String> ttlOfInstance;
  private final String options;
  private final Pids pids;
  private Process server;
  private int generation;

  /**
   * @param ttlOfInstance the lease time each worker instance asks for (workers differ)
   */
  RedisRegistry(
      Path dir, InetAddress bind, ToLongFunction<String> ttlOfInstance, String options, Pids pids)
      throws IOException, InterruptedException {
    this.dir = dir;
    this.host = bind.getHostAddress();
    this.ttlOfInstance = ttlOfInstance;
    this.options = options;
    this.pids = pids;
    Files.createDirectories(dir);
    try (ServerSocket s = new ServerSocket(0, 1, bind)) {
      this.port = s.getLocalPort();
    }
    start();
  }

  @Override
  public String name() {
    return "redis";
  }

  @Override
  public InetSocketAddress endpoint() {
    return new InetSocketAddress(host, port);
  }

  @Override
  public String uri(InetSocketAddress via, String instance) {
    return "redis://"
        + via.getAddress().getHostAddress()
        + ":"
        + via.getPort()
        + "?"
        + options
        + "&prefix=torture&instance="
        + instance;
  }

  @Override
  public boolean restartable() {
    return true;
  }

  private void start() throws IOException, InterruptedException {
    server =
        ServerProcess.start(
            List.of(
                "redis-server",
                "--port",
                Integer.toString(port),
                "--bind",
                host,
                "--protected-mode",
                "no",
                "--save",
                "",
                "--appendonly",
                "yes",
                "--appendfsync",
                "no",
                "--auto-aof-rewrite-percentage",
                "0",
                "--aof-use-rdb-preamble",
                "no",
                "--dir",
                dir.toString(),
                "--appenddirname",
                "aof-" + generation),
            dir.resolve("redis.log"),
            pids);
    ServerProcess.await("redis-server on " + host + ":" + port, server, this::answers, 30);
  }

  private boolean answers() {
    try {
      return cli("ping").output().equals("PONG");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private ServerProcess.Result cli(String... args) throws InterruptedException {
    List<String> command = new ArrayList<>(List.of("redis-cli", "-h", host, "-p", "" + port));
    command.addAll(List.of(args));
    return ServerProcess.run(command, 30);
  }

  /** {@code shutdown nosave}, then a start that comes back empty. */
  @Override
  public void restart(long downMillis) throws IOException, InterruptedException {
    shutdown();
    Thread.sleep(downMillis);
    generation++;
    start();
  }

  private void shutdown() throws InterruptedException {
    cli("shutdown", "nosave");
    if (!server.waitFor(30, TimeUnit.SECONDS)) {
      server.destroyForcibly();
      server.waitFor(10, TimeUnit.SECONDS);
    }
  }

  /** Every key's {@code DUMP}. */
  @Override
  public Snapshot snapshot() throws IOException {
    long at = Timeline.monoMicros() / 1000;
    Map<byte[], byte[]> keys = new LinkedHashMap<>();
    try (RedisClient c = new RedisClient(endpoint())) {
      for (Object key : (List<?>) c.call("KEYS", "*")) {
        byte[] dump = (byte[]) c.call("DUMP", key);
        if (dump != null) {
          keys.put((byte[]) key, dump);
        }
      }
    }
    return new Snapshot(at, keys);
  }

  /** {@code FLUSHALL} and a {@code RESTORE} of every key, in one {@code MULTI}. */
  @Override
  public void rollback(Snapshot snapshot) throws IOException {
    @SuppressWarnings("unchecked")
    Map<byte[], byte[]> keys = (Map<byte[], byte[]>) snapshot.state();
    try (RedisClient c = new RedisClient(endpoint())) {
      c.call("MULTI");
      c.call("FLUSHALL");
      for (Map.Entry<byte[], byte[]> e : keys.entrySet()) {
        c.call("RESTORE", e.getKey(), "0", e.getValue());
      }
      c.call("EXEC");
    }
  }

  @Override
  public void close() {
    try {
      if (server != null && server.isAlive()) {
        shutdown();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      server.destroyForcibly();
    }
  }

  @Override
  public List<Hold> stopAndReadHolds(Timeline timeline) throws IOException {
    close(); // Redis writes out its append-only file as it shuts down
    List<Hold> holds = new ArrayList<>();
    for (int g = 0; g <= generation; g++) {
      Path aof = dir.resolve("aof-" + g);
      for (String file : incrementalFiles(aof)) {
        for (List<String> command : Resp.commands(Files.readAllBytes(aof.resolve(file)))) {
          addHolds(command, timeline, holds);
        }
      }
    }
    return holds;
  }

  /** The base and incremental files of a multi-part AOF, in the manifest's order. */
  private static List<String> incrementalFiles(Path aof) throws IOException {
    List<String> files = new ArrayList<>();
    Path manifest = aof.resolve("appendonly.aof.manifest");
    if (!Files.exists(manifest)) {
      return files;
    }
    List<String> base = new ArrayList<>();
    for (String line : Files.readAllLines(manifest, StandardCharsets.UTF_8)) {
      String[] f = line.trim().split(" ");
      // file NAME seq N type b|i
      if (f.length >= 6 && f[0].equals("file")) {
        (f[5].equals("b") ? base : files).add(f[1]);
      }
    }
    base.addAll(files);
    return base;
  }

  /** HSET {P}:NS:ids id "instance token expiresAt highWater base" … */
  private void addHolds(List<String> command, Timeline timeline, List<Hold> holds) {
    if (command.size() < 4
        || !command.get(0).equalsIgnoreCase("HSET")
        || !command.get(1).endsWith(":ids")) {
      return;
    }
    String key = command.get(1); // {P}:NS:ids
    int tag = key.indexOf("}:");
    String namespace = key.substring(tag < 0 ? 0 : tag + 2, key.length() - ":ids".length());
    for (int i = 2; i + 1 < command.size(); i += 2) {
      String[] rec = command.get(i + 1).split(" ");
      if (rec.length < 3 || rec[1].equals("-") || rec[2].equals("-")) {
        continue; // released: no holder
      }
      long expires = Long.parseLong(rec[2]);
      holds.add(
          new Hold(
              rec[0],
              namespace,
              Long.parseLong(command.get(i)),
              timeline.monoOfWall(expires - ttlOfInstance.applyAsLong(rec[0])),
              timeline.monoOfWall(expires),
              rec.length > 3 && !rec[3].equals("-") ? Long.parseLong(rec[3]) : Long.MIN_VALUE));
    }
  }

  @Override
  public String holdsSource() {
    return "Redis's append-only file: every HSET of the lease scripts, [expiresAt - ttl, expiresAt]"
        + " by Redis's clock ("
        + (generation + 1)
        + " server lifetimes)";
  }
}
