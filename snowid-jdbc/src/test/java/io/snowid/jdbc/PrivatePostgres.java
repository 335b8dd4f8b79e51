package io.snowid.jdbc;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL server of a test's own, which it may stop and start again: {@code initdb} and {@code
 * pg_ctl} in a temporary directory, on a free port of 127.0.0.1, trusting local connections. As
 * root the tools run as the user {@code postgres} (PostgreSQL refuses root). The shared server on
 * 5432 is never touched.
 */
final class PrivatePostgres implements PrivateDatabase {
  private final Path dir;
  private final Path bin;
  private final int port;
  private final boolean asPostgres;

  private PrivatePostgres(Path dir, Path bin, int port, boolean asPostgres) {
    this.dir = dir;
    this.bin = bin;
    this.port = port;
    this.asPostgres = asPostgres;
  }

  /** Creates a cluster in a new temporary directory and starts it. */
  static PrivatePostgres create() throws IOException, InterruptedException {
    boolean root = "root".equals(System.getProperty("user.name"));
    Path dir = Files.createTempDirectory("snowid-pg-");
    if (root) {
      UserPrincipalLookupService users = dir.getFileSystem().getUserPrincipalLookupService();
      Files.setOwner(dir, users.lookupPrincipalByName("postgres"));
    }
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    PrivatePostgres pg = new PrivatePostgres(dir, binaries(), port, root);
    try {
      pg.run("initdb", "-D", pg.data(), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync");
      pg.start();
    } catch (IOException | InterruptedException | RuntimeException e) {
      pg.close(); // no server or directory left behind
      throw e;
    }
    return pg;
  }

  /** The directory of initdb and pg_ctl: on the PATH, else the newest under /usr/lib/postgresql. */
  private static Path binaries() throws IOException {
    for (String p : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!p.isEmpty() && Files.isExecutable(Paths.get(p, "pg_ctl"))) {
        return Paths.get(p);
      }
    }
    Path lib = Paths.get("/usr/lib/postgresql");
    if (Files.isDirectory(lib)) {
      try (Stream<Path> versions = Files.list(lib)) {
        Path bin =
            versions
                .map(v -> v.resolve("bin"))
                .filter(b -> Files.isExecutable(b.resolve("pg_ctl")))
                .max(
                    Comparator.comparing(
                        b -> Integer.parseInt(b.getParent().getFileName().toString())))
                .orElse(null);
        if (bin != null) {
          return bin;
        }
      }
    }
    throw new IllegalStateException(
        "no pg_ctl on the PATH or under /usr/lib/postgresql/*/bin: install PostgreSQL's server"
            + " (.ci/services.sh does)");
  }

  private String data() {
    return dir.resolve("data").toString();
  }

  @Override
  public int port() {
    return port;
  }

  /** The JDBC URL of its database {@code postgres}. */
  @Override
  public String url() {
    return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
  }

  /** Starts the server (again, on the same port) and waits until it accepts connections. */
  @Override
  public void start() throws IOException, InterruptedException {
    run(
        "pg_ctl",
        "-D",
        data(),
        "-l",
        dir.resolve("server.log").toString(),
        "-w",
        "-t",
        "60",
        "-o",
        "-p " + port + " -c listen_addresses=127.0.0.1 -k " + dir + " -c fsync=off",
        "start");
  }

  /** Starts the server unless it runs. */
  void ensureRunning() throws IOException, InterruptedException {
    if (!running()) {
      start();
    }
  }

  /** {@code pg_ctl stop -m immediate}: the server exits at once, as in a crash. */
  @Override
  public void stopImmediately() throws IOException, InterruptedException {
    run("pg_ctl", "-D", data(), "-m", "immediate", "-w", "stop");
  }

  @Override
  public void close() throws IOException, InterruptedException {
    try {
      if (running()) {
        run("pg_ctl", "-D", data(), "-m", "immediate", "-w", "stop");
      }
    } finally {
      try (Stream<Path> all = Files.walk(dir)) {
        for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  /** {@code pg_dump} of one table of the database {@code postgres} into a file of this cluster. */
  @Override
  public Path dump(String table) throws IOException, InterruptedException {
    Path file = dir.resolve(table + ".sql");
    run(
        "pg_dump",
        "-h",
        "127.0.0.1",
        "-p",
        Integer.toString(port),
        "-U",
        "postgres",
        "-d",
        "postgres",
        "-t",
        table,
        "-f",
        file.toString());
    return file;
  }

  /** Drops the table and restores it from a {@link #dump}, as an operator's restore would. */
  @Override
  public void restore(String table, Path dump) throws IOException, InterruptedException {
    String[] connect = {"-h", "127.0.0.1", "-p", Integer.toString(port), "-U", "postgres"};
    List<String> drop = new ArrayList<>(List.of(connect));
    drop.addAll(List.of("-d", "postgres", "-v", "ON_ERROR_STOP=1", "-c", "DROP TABLE " + table));
    run("psql", drop.toArray(new String[0]));
    List<String> load = new ArrayList<>(List.of(connect));
    load.addAll(List.of("-d", "postgres", "-v", "ON_ERROR_STOP=1", "-q", "-f", dump.toString()));
    run("psql", load.toArray(new String[0]));
  }

  /** {@code pg_ctl status}: 0 while the server runs, 3 when it does not. */
  private boolean running() throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder(command("pg_ctl", "-D", data(), "status"))
            .redirectErrorStream(true)
            .start();
    p.getInputStream().transferTo(OutputStream.nullOutputStream());
    return p.waitFor(1, TimeUnit.MINUTES) && p.exitValue() == 0;
  }

  private void run(String tool, String... args) throws IOException, InterruptedException {
    List<String> command = command(tool, args);
    Process p =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(2, TimeUnit.MINUTES) || p.exitValue() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed:\n" + out + log());
    }
  }

  /** A command line for one of PostgreSQL's tools, as the user postgres when this is root. */
  private List<String> command(String tool, String... args) {
    List<String> command = new ArrayList<>();
    if (asPostgres) {
      command.addAll(List.of("runuser", "-u", "postgres", "--"));
    }
    Path path = bin.resolve(tool);
    // pg_ctl's directory may hold a link to it alone (/usr/local/bin): then the client tools are
    // beside the real one
    if (!Files.isExecutable(path)) {
      try {
        path = bin.resolve("pg_ctl").toRealPath().resolveSibling(tool);
      } catch (IOException e) {
        path = Paths.get(tool);
      }
    }
    command.add(path.toString());
    command.addAll(List.of(args));
    return command;
  }

  private String log() throws IOException {
    Path log = dir.resolve("server.log");
    return Files.exists(log) ? "\nserver.log:\n" + Files.readString(log) : "";
  }
}
