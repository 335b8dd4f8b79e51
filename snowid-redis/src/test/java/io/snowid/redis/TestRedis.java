package io.snowid.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Redis for the tests: the shared server at 127.0.0.1:6379 (never stopped, never flushed: each test
 * uses a key prefix of its own and deletes it), or a private {@code redis-server} on a free port
 * that a test may stop and start again.
 */
final class TestRedis implements AutoCloseable {
  private static final TestRedis SHARED = new TestRedis(6379, null);

  private final int port;
  private final Path dir;
  private final List<String> extraArgs;
  private Process server;
  private Path config; // a configuration file to start with (Sentinel needs one)
  private boolean paused; // SIGSTOPped: close() continues it first, so that it can exit

  private TestRedis(int port, Path dir, String... extraArgs) {
    this.port = port;
    this.dir = dir;
    this.extraArgs = List.of(extraArgs);
  }

  static TestRedis shared() {
    return SHARED;
  }

  /** A server some other process runs, on 127.0.0.1 (never started or stopped from here). */
  static TestRedis running(int port) {
    return new TestRedis(port, null);
  }

  /** Starts a private server without persistence: a restart comes back empty. */
  static TestRedis startPrivate(Path dir, String... extraArgs)
      throws IOException, InterruptedException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    TestRedis r = new TestRedis(port, dir, extraArgs);
    r.start();
    return r;
  }

  /** Starts a private Sentinel that watches {@code master} under the name {@code main}. */
  static TestRedis startSentinel(Path dir, TestRedis master)
      throws IOException, InterruptedException {
    Files.createDirectories(dir);
    Path conf = dir.resolve("sentinel.conf");
    Files.writeString(conf, "sentinel monitor main 127.0.0.1 " + master.port + " 1\n");
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    TestRedis r = new TestRedis(port, dir, "--sentinel");
    r.config = conf;
    r.start();
    return r;
  }

  int port() {
    return port;
  }

  String uri() {
    return "redis://127.0.0.1:" + port;
  }

  static String uniquePrefix() {
    return "snowid-test-" + UUID.randomUUID().toString().substring(0, 12);
  }

  /** Starts the private server (again, on the same port) and waits until it answers. */
  void start() throws IOException, InterruptedException {
    if (dir == null) {
      throw new IllegalStateException("the shared server is never started or stopped by a test");
    }
    Files.createDirectories(dir);
    List<String> command = new ArrayList<>(List.of("redis-server"));
    if (config != null) {
      command.add(config.toString());
    }
    command.addAll(
        List.of(
            "--port",
            Integer.toString(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            dir.toString()));
    command.addAll(extraArgs);
    server =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("redis.log").toFile()))
            .start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!cli("ping").equals("PONG")) {
      assertThat(server.isAlive()).as("redis-server on port " + port + " started").isTrue();
      assertThat(System.nanoTime()).as("redis-server answers within 30 s").isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  /** {@code redis-cli -p PORT shutdown nosave}: the server exits and forgets everything. */
  void shutdownNosave() throws IOException, InterruptedException {
    cli("shutdown", "nosave");
    assertThat(server.waitFor(30, TimeUnit.SECONDS)).as("redis-server stopped").isTrue();
  }

  /**
   * SIGKILL: the private server dies at once, without saving; a {@link #start()} then loads the
   * last snapshot its {@code SAVE} wrote, if any (an older state), or comes back empty.
   */
  void kill() throws IOException, InterruptedException {
    signal("KILL");
    assertThat(server.waitFor(30, TimeUnit.SECONDS)).as("redis-server killed").isTrue();
  }

  /**
   * SIGSTOP: the private server answers nothing (its keys' expiry times stand, by its clock) until
   * {@link #close()}. Returns once the signal was sent.
   */
  void pause() throws IOException, InterruptedException {
    signal("STOP");
    paused = true;
  }

  private void signal(String name) throws IOException, InterruptedException {
    if (server == null) {
      throw new IllegalStateException("only a private server started here is signalled");
    }
    Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(server.pid())).start();
    assertThat(kill.waitFor(10, TimeUnit.SECONDS)).as("kill -" + name).isTrue();
    assertThat(kill.exitValue()).as("kill -" + name + " " + server.pid()).isZero();
  }

  @Override
  public void close() {
    if (server != null && server.isAlive()) {
      if (paused) {
        try {
          signal("CONT"); // a stopped process takes SIGTERM only once continued
        } catch (IOException e) {
          server.destroyForcibly();
        } catch (InterruptedException e) {
          server.destroyForcibly();
          Thread.currentThread().interrupt();
        }
      }
      server.destroy();
      try {
        if (!server.waitFor(10, TimeUnit.SECONDS)) {
          server.destroyForcibly();
        }
      } catch (InterruptedException e) {
        server.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Runs redis-cli against this server; its output, trimmed ("" if it failed). */
  String cli(String... args) throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(List.of("redis-cli", "-h", "127.0.0.1", "-p", "" + port));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out =
        new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
            .trim();
    p.waitFor(30, TimeUnit.SECONDS);
    return out;
  }

  /** Runs commands on a fresh connection to this server. */
  <T> T with(Function<RedisCommands<String, String>, T> commands) {
    RedisClient client = RedisClient.create(uri());
    try (StatefulRedisConnection<String, String> c = client.connect()) {
      return commands.apply(c.sync());
    } finally {
      client.shutdown(java.time.Duration.ZERO, java.time.Duration.ofSeconds(2));
    }
  }

  /** The keys of the prefix of a lease URI ({@code …?prefix=P} → {@code {P}…}). */
  List<String> keys(String uri) {
    String prefix = prefixOf(uri);
    return with(
        redis -> {
          List<String> found = new ArrayList<>();
          ScanCursor cursor = ScanCursor.INITIAL;
          do {
            KeyScanCursor<String> page =
                redis.scan(cursor, ScanArgs.Builder.matches("{" + prefix + "}*").limit(1000));
            found.addAll(page.getKeys());
            cursor = page;
          } while (!cursor.isFinished());
          return found;
        });
  }

  /** Deletes every key of one namespace of the prefix of a lease URI (its state included). */
  void deleteNamespace(String uri, String namespace) {
    String ns = "{" + prefixOf(uri) + "}:" + namespace + ":";
    with(redis -> redis.del(ns + "ids", ns + "held", ns + "last", ns + "state"));
  }

  /**
   * Puts the prefix of a lease URI in service, as a registry whose holders wrote just now: a new
   * namespace's first holder does not wait out a loss (RedisLeaseRecoveryTest and
   * RedisRegistryLossTest cover that wait). A namespace created more than its maxTtl later would.
   */
  void putInService(String uri) {
    String prefix = prefixOf(uri);
    with(
        redis -> {
          String key = "{" + prefix + "}:registry";
          redis.hset(key, "written", Long.toString(System.currentTimeMillis()));
          return redis.pexpire(key, 3_600_000L);
        });
  }

  private static String prefixOf(String uri) {
    return uri.substring(uri.indexOf("prefix=") + "prefix=".length()).split("&", -1)[0];
  }

  /** Every key of the prefix of a lease URI, {@code DUMP}ed: a snapshot of it. */
  java.util.Map<String, byte[]> dumpPrefix(String uri) {
    java.util.Map<String, byte[]> dump = new java.util.LinkedHashMap<>();
    io.lettuce.core.RedisClient client = io.lettuce.core.RedisClient.create(uri());
    try (var c = client.connect(io.lettuce.core.codec.ByteArrayCodec.INSTANCE)) {
      for (String k : keys(uri)) {
        dump.put(k, c.sync().dump(k.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
      }
    } finally {
      client.shutdown();
    }
    return dump;
  }

  /** Replaces the prefix of a lease URI by a {@link #dumpPrefix} snapshot: a rollback. */
  void restorePrefix(String uri, java.util.Map<String, byte[]> dump) {
    deletePrefix(uri);
    io.lettuce.core.RedisClient client = io.lettuce.core.RedisClient.create(uri());
    try (var c = client.connect(io.lettuce.core.codec.ByteArrayCodec.INSTANCE)) {
      for (var e : dump.entrySet()) {
        c.sync()
            .restore(e.getKey().getBytes(java.nio.charset.StandardCharsets.UTF_8), 0, e.getValue());
      }
    } finally {
      client.shutdown();
    }
  }

  /** Deletes every key of the prefix of a lease URI. */
  void deletePrefix(String uri) {
    List<String> keys = keys(uri);
    if (!keys.isEmpty()) {
      with(redis -> redis.del(keys.toArray(new String[0])));
    }
  }
}
