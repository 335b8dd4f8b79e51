package io.snowid.torture;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A private PostgreSQL: {@code initdb} of a data directory of the run (as user postgres, trust
 * authentication), {@code pg_ctl start} on the registry's address and a port of its own; the
 * restart fault is {@code pg_ctl stop -m immediate} (no shutdown checkpoint, as a crash) and a
 * start, which recovers from the WAL.
 */
final class PostgresRegistry extends SqlRegistry {
  private final Path bin;
  private final Path data;

  PostgresRegistry(Path dir, InetAddress bind, String options, Pids pids)
      throws IOException, InterruptedException {
    super(dir, bind, options, pids);
    this.bin = binaries();
    this.data = dir.resolve("data");
    if ("root".equals(System.getProperty("user.name"))) {
      ServerProcess.run(List.of("chown", "-R", "postgres", dir.toString()), 30);
      // user postgres must reach its data directory: a private run directory (a JUnit @TempDir is
      // 0700) gets o+x, searchable but not listable; / and /tmp have it already
      for (Path p = dir.getParent(); p != null; p = p.getParent()) {
        java.util.Set<java.nio.file.attribute.PosixFilePermission> perms =
            Files.getPosixFilePermissions(p);
        if (perms.add(java.nio.file.attribute.PosixFilePermission.OTHERS_EXECUTE)) {
          Files.setPosixFilePermissions(p, perms);
        }
      }
    }
    ServerProcess.Result init =
        asPostgres(
            bin.resolve("initdb").toString(),
            "-D",
            data.toString(),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync");
    if (!init.ok()) {
      throw new IOException("initdb failed: " + init.output());
    }
    // the workers come from the hosts' addresses: trust them as the local socket is trusted
    Files.writeString(
        data.resolve("pg_hba.conf"),
        "host all all 0.0.0.0/0 trust\n",
        java.nio.file.StandardOpenOption.APPEND);
    start();
    createTables();
  }

  /** The newest PostgreSQL's binaries under /usr/lib/postgresql. */
  private static Path binaries() throws IOException {
    Path root = Path.of("/usr/lib/postgresql");
    List<Path> versions = new ArrayList<>();
    if (Files.isDirectory(root)) {
      try (var ds = Files.newDirectoryStream(root)) {
        ds.forEach(versions::add);
      }
    }
    versions.removeIf(v -> !Files.isExecutable(v.resolve("bin/pg_ctl")));
    if (versions.isEmpty()) {
      throw new IOException("no PostgreSQL under /usr/lib/postgresql (apt-get install postgresql)");
    }
    versions.sort(
        (a, b) ->
            Integer.compare(
                Integer.parseInt(a.getFileName().toString().replaceAll("\\D", "0")),
                Integer.parseInt(b.getFileName().toString().replaceAll("\\D", "0"))));
    return versions.get(versions.size() - 1).resolve("bin");
  }

  /** Runs a PostgreSQL program as user postgres when this is root (they refuse root). */
  private static ServerProcess.Result asPostgres(String... command) throws InterruptedException {
    List<String> full = new ArrayList<>();
    if ("root".equals(System.getProperty("user.name"))) {
      full.addAll(List.of("runuser", "-u", "postgres", "--"));
    }
    full.addAll(List.of(command));
    return ServerProcess.run(full, 120);
  }

  private void start() throws IOException, InterruptedException {
    ServerProcess.Result r =
        asPostgres(
            bin.resolve("pg_ctl").toString(),
            "-D",
            data.toString(),
            "-l",
            dir.resolve("postgresql.log").toString(),
            "-w",
            "-t",
            "60",
            "-o",
            "-p "
                + port
                + " -k "
                + dir
                + " -c listen_addresses="
                + host
                + " -c fsync=off -c max_connections=200",
            "start");
    if (!r.ok()) {
      throw new IOException("pg_ctl start failed: " + r.output());
    }
    String pid = Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim();
    pids.add(pid);
    ServerProcess.await("PostgreSQL on " + host + ":" + port, null, this::answers, 60);
  }

  private void stop(String mode) throws InterruptedException {
    asPostgres(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", mode, "-w", "stop");
  }

  @Override
  public String name() {
    return "postgresql";
  }

  @Override
  String adminUrl() {
    return "jdbc:postgresql://" + host + ":" + port + "/postgres?user=postgres";
  }

  @Override
  String workerUrl(InetSocketAddress via) {
    return "jdbc:postgresql://"
        + via.getAddress().getHostAddress()
        + ":"
        + via.getPort()
        + "/postgres?user=postgres";
  }

  @Override
  String dialect() {
    return "postgresql";
  }

  @Override
  List<String> auditDdl() {
    return List.of(
        "CREATE TABLE torture_audit (namespace VARCHAR(255), node_id BIGINT, instance"
            + " VARCHAR(100), token VARCHAR(36), renewed_at BIGINT, expires_at BIGINT,"
            + " high_water BIGINT)",
        "CREATE FUNCTION torture_audit() RETURNS trigger AS $$ BEGIN INSERT INTO torture_audit"
            + " VALUES (NEW.namespace, NEW.node_id, NEW.instance, NEW.token, NEW.renewed_at,"
            + " NEW.expires_at, NEW.high_water); RETURN NULL; END $$ LANGUAGE plpgsql",
        "CREATE TRIGGER torture_audit AFTER INSERT OR UPDATE ON "
            + TABLE
            + " FOR EACH ROW EXECUTE FUNCTION torture_audit()");
  }

  @Override
  public void restart(long downMillis) throws IOException, InterruptedException {
    stop("immediate");
    Thread.sleep(downMillis);
    start();
  }

  @Override
  public void close() {
    try {
      if (Files.exists(data.resolve("postmaster.pid"))) {
        stop("fast");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
