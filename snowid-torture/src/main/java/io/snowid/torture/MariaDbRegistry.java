package io.snowid.torture;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A private MariaDB: {@code mariadb-install-db} into a data directory of the run, {@code mariadbd}
 * on the registry's address, a port and a socket of its own, and a user {@code torture} without
 * password; the restart fault is SIGKILL and a start, which recovers InnoDB from its log. The holds
 * come from its binary log in row format: every committed version of every lease row.
 */
final class MariaDbRegistry extends SqlRegistry {
  private final Path data;
  private Process server;

  MariaDbRegistry(Path dir, InetAddress bind, String options, Pids pids)
      throws IOException, InterruptedException {
    super(dir, bind, options, pids);
    this.data = dir.resolve("data");
    ServerProcess.Result install =
        ServerProcess.run(
            List.of(
                "mariadb-install-db",
                "--no-defaults",
                "--datadir=" + data,
                "--user=root",
                "--auth-root-authentication-method=normal",
                "--skip-test-db"),
            120);
    if (!install.ok()) {
      throw new IOException("mariadb-install-db failed: " + install.output());
    }
    start();
    ServerProcess.Result grant =
        ServerProcess.run(
            List.of(
                "mariadb",
                "--no-defaults",
                "-S",
                dir.resolve("sock").toString(),
                "-u",
                "root",
                "-e",
                "CREATE USER 'torture'@'%'; GRANT ALL ON *.* TO 'torture'@'%';"
                    + " CREATE DATABASE torture;"),
            60);
    if (!grant.ok()) {
      throw new IOException("cannot create the torture user: " + grant.output());
    }
    createTables();
  }

  private void start() throws IOException, InterruptedException {
    server =
        ServerProcess.start(
            List.of(
                "mariadbd",
                "--no-defaults",
                "--datadir=" + data,
                "--user=root",
                "--port=" + port,
                "--bind-address=" + host,
                "--socket=" + dir.resolve("sock"),
                "--pid-file=" + dir.resolve("mariadbd.pid"),
                "--log-bin=" + dir.resolve("binlog"),
                "--binlog-format=ROW",
                "--binlog-row-image=FULL",
                "--server-id=1",
                "--innodb-flush-log-at-trx-commit=2",
                "--innodb-buffer-pool-size=64M",
                "--max-connections=300"),
            dir.resolve("mariadb.log"),
            pids);
    ServerProcess.await(
        "MariaDB on " + host + ":" + port, server, () -> server.isAlive() && socketAnswers(), 120);
  }

  private boolean socketAnswers() {
    try {
      return ServerProcess.run(
              List.of(
                  "mariadb",
                  "--no-defaults",
                  "-S",
                  dir.resolve("sock").toString(),
                  "-u",
                  "root",
                  "-e",
                  "SELECT 1"),
              10)
          .ok();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  @Override
  public String name() {
    return "mariadb";
  }

  @Override
  String adminUrl() {
    return "jdbc:mariadb://" + host + ":" + port + "/torture?user=torture";
  }

  @Override
  String workerUrl(InetSocketAddress via) {
    return "jdbc:mariadb://"
        + via.getAddress().getHostAddress()
        + ":"
        + via.getPort()
        + "/torture?user=torture";
  }

  @Override
  String dialect() {
    return "mariadb";
  }

  /** None: the binary log is the record (a trigger would change what snowid reads back). */
  @Override
  List<String> auditDdl() {
    return List.of();
  }

  /**
   * Stops the server, then reads its binary log: {@code mariadb-binlog --verbose} prints each row
   * event's after image as {@code ### @N=value} lines, columns in the DDL's order (namespace,
   * node_id, instance, host, token, expires_at, high_water, prior_high_water, acquired_at,
   * renewed_at).
   */
  @Override
  public List<Hold> stopAndReadHolds(Timeline timeline) throws IOException, InterruptedException {
    close();
    List<String> command =
        new ArrayList<>(
            List.of("mariadb-binlog", "--no-defaults", "--base64-output=DECODE-ROWS", "--verbose"));
    for (String line : Files.readAllLines(dir.resolve("binlog.index"))) {
      if (!line.isBlank()) {
        Path file = Path.of(line.trim());
        command.add((file.isAbsolute() ? file : data.resolve(file)).toString());
      }
    }
    Path text = dir.resolve("binlog.txt");
    Process p =
        new ProcessBuilder(command)
            .redirectOutput(text.toFile())
            .redirectError(ProcessBuilder.Redirect.appendTo(dir.resolve("binlog.err").toFile()))
            .start();
    if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IOException("mariadb-binlog failed: see " + dir.resolve("binlog.err"));
    }
    List<Hold> holds = new ArrayList<>();
    try (BufferedReader r = Files.newBufferedReader(text, StandardCharsets.UTF_8)) {
      String table = null;
      boolean after = false;
      Map<Integer, String> row = new HashMap<>();
      for (String line; (line = r.readLine()) != null; ) {
        if (!line.startsWith("###")) {
          continue;
        }
        String l = line.substring(3).trim();
        if (l.startsWith("INSERT INTO ") || l.startsWith("UPDATE ") || l.startsWith("DELETE ")) {
          addHold(table, after, row, timeline, holds);
          table = l.substring(l.indexOf('`'));
          after = l.startsWith("INSERT");
          row.clear();
        } else if (l.equals("SET")) {
          after = true;
          row.clear();
        } else if (l.equals("WHERE")) {
          row.clear();
        } else if (l.startsWith("@")) {
          int eq = l.indexOf('=');
          String value = l.substring(eq + 1);
          int unsigned = value.indexOf(" ("); // -1 (18446744073709551615): the number as unsigned
          row.put(
              Integer.parseInt(l.substring(1, eq)),
              unsigned > 0 && !value.startsWith("'") ? value.substring(0, unsigned) : value);
        }
      }
      addHold(table, after, row, timeline, holds);
    }
    return holds;
  }

  private static void addHold(
      String table, boolean after, Map<Integer, String> row, Timeline timeline, List<Hold> holds) {
    if (table == null || !after || !table.equals("`torture`.`" + TABLE + "`")) {
      return;
    }
    String token = row.get(5);
    long nodeId = Long.parseLong(row.get(2));
    if (token == null || token.equals("NULL") || nodeId < 0 || row.get(6).equals("NULL")) {
      return;
    }
    String instance = row.get(3);
    String namespace = row.get(1);
    String highWater = row.get(7);
    holds.add(
        new Hold(
            instance.substring(1, instance.length() - 1),
            namespace.substring(1, namespace.length() - 1),
            nodeId,
            timeline.monoOfWall(Long.parseLong(row.get(10))),
            timeline.monoOfWall(Long.parseLong(row.get(6))),
            highWater == null || highWater.equals("NULL")
                ? Long.MIN_VALUE
                : Long.parseLong(highWater)));
  }

  @Override
  public String holdsSource() {
    return "MariaDB's binary log (row format): [renewed_at, expires_at] of every version of every"
        + " lease row, by the database's clock";
  }

  /** SIGKILL, as a crash; InnoDB recovers committed transactions at the start. */
  @Override
  public void restart(long downMillis) throws IOException, InterruptedException {
    server.destroyForcibly();
    server.waitFor(30, TimeUnit.SECONDS);
    Thread.sleep(downMillis);
    start();
  }

  @Override
  public void close() {
    ServerProcess.stop(server, 30);
  }
}
