package io.snowid.jdbc;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A MariaDB server of a test's own, which it may kill and start again: {@code mariadb-install-db}
 * into a temporary directory, {@code mariadbd} on a free port of 127.0.0.1 and a socket in that
 * directory, user {@code root} without a password, database {@code test}. As root the server runs
 * with {@code --user=root} (mariadbd refuses root otherwise). The shared server on 3306 is never
 * touched.
 */
final class PrivateMariaDb implements PrivateDatabase {
  private final Path dir;
  private final int port;
  private Process server;

  private PrivateMariaDb(Path dir, int port) {
    this.dir = dir;
    this.port = port;
  }

  /** Installs a data directory in a new temporary directory, starts the server on it. */
  static PrivateMariaDb create() throws IOException, InterruptedException {
    Path dir = Files.createTempDirectory("snowid-mariadb-");
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    PrivateMariaDb db = new PrivateMariaDb(dir, port);
    try {
      db.run(
          null,
          "mariadb-install-db",
          "--no-defaults",
          "--datadir=" + db.data(),
          "--user=root",
          "--auth-root-authentication-method=normal",
          "--skip-test-db");
      db.start();
      db.run(null, "mariadb", db.client("-e", "CREATE DATABASE test"));
    } catch (IOException | InterruptedException | RuntimeException e) {
      db.close(); // no server or directory left behind
      throw e;
    }
    return db;
  }

  private Path data() {
    return dir.resolve("data");
  }

  private Path socket() {
    return dir.resolve("mariadb.sock");
  }

  private Path log() {
    return dir.resolve("server.log");
  }

  @Override
  public int port() {
    return port;
  }

  /** The JDBC URL of its database {@code test}, as TestDatabase's for the shared server. */
  @Override
  public String url() {
    return "jdbc:mariadb://127.0.0.1:" + port + "/test?user=root";
  }

  /**
   * Starts {@code mariadbd} (again, on the same port; after a kill InnoDB recovers what was
   * committed from its log) and waits until it accepts connections on that port.
   */
  @Override
  public void start() throws IOException, InterruptedException {
    List<String> command =
        List.of(
            tool("mariadbd"),
            "--no-defaults",
            "--datadir=" + data(),
            "--user=root",
            "--port=" + port,
            "--bind-address=127.0.0.1",
            "--socket=" + socket(),
            "--pid-file=" + dir.resolve("mariadbd.pid"),
            "--innodb-buffer-pool-size=64M",
            // committed transactions reach the OS at each commit: a kill loses none of them
            "--innodb-flush-log-at-trx-commit=2");
    server =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()))
            .start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!accepts()) {
      if (!server.isAlive() || System.nanoTime() > deadline) {
        server.destroyForcibly();
        server.waitFor(30, TimeUnit.SECONDS);
        throw new IllegalStateException(
            String.join(" ", command) + " did not accept connections on " + port + "\n" + text());
      }
      Thread.sleep(100);
    }
  }

  private boolean accepts() {
    try (Connection c =
        DriverManager.getConnection(
            "jdbc:mariadb://127.0.0.1:" + port + "/?user=root&connectTimeout=2000")) {
      return c.isValid(2);
    } catch (SQLException e) {
      return false;
    }
  }

  /** SIGKILL: the server exits at once, as in a crash. */
  @Override
  public void stopImmediately() throws InterruptedException {
    server.destroyForcibly();
    if (!server.waitFor(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("mariadbd did not exit 30 s after SIGKILL");
    }
  }

  @Override
  public void close() throws IOException, InterruptedException {
    try {
      if (server != null && server.isAlive()) {
        stopImmediately();
      }
    } finally {
      try (Stream<Path> all = Files.walk(dir)) {
        for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  /** {@code mariadb-dump} of one table of the database {@code test} into a file of this server. */
  @Override
  public Path dump(String table) throws IOException, InterruptedException {
    Path file = dir.resolve(table + ".sql");
    run(
        null,
        "mariadb-dump",
        client("--single-transaction", "--result-file=" + file, "test", table));
    return file;
  }

  /** Drops the table and loads a {@link #dump} with the {@code mariadb} client. */
  @Override
  public void restore(String table, Path dump) throws IOException, InterruptedException {
    run(null, "mariadb", client("-e", "DROP TABLE " + table, "test"));
    run(dump, "mariadb", client("test"));
  }

  /** A client tool's arguments: no option files, this server's socket, root. */
  private String[] client(String... args) {
    List<String> all = new ArrayList<>(List.of("--no-defaults", "-S", socket().toString()));
    all.addAll(List.of("-u", "root"));
    all.addAll(List.of(args));
    return all.toArray(new String[0]);
  }

  /** Runs one of MariaDB's tools to its end, its standard input from {@code input} if not null. */
  private void run(Path input, String tool, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(tool(tool));
    command.addAll(List.of(args));
    ProcessBuilder pb =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
    if (input != null) {
      pb.redirectInput(input.toFile());
    }
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(2, TimeUnit.MINUTES) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IllegalStateException(String.join(" ", command) + " failed:\n" + out + text());
    }
  }

  /** A tool of MariaDB's: on the PATH, else in /usr/sbin or /usr/bin (mariadbd is in sbin). */
  private static String tool(String name) {
    List<String> dirs =
        new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
    dirs.addAll(List.of("/usr/sbin", "/usr/bin"));
    for (String d : dirs) {
      if (!d.isEmpty() && Files.isExecutable(Paths.get(d, name))) {
        return Paths.get(d, name).toString();
      }
    }
    throw new IllegalStateException(
        "no "
            + name
            + " on the PATH or in /usr/sbin, /usr/bin: install MariaDB's server and client"
            + " (mariadb-server, mariadb-client; .ci/services.sh does)");
  }

  private String text() throws IOException {
    return Files.exists(log()) ? "\nserver.log:\n" + Files.readString(log()) : "";
  }
}
