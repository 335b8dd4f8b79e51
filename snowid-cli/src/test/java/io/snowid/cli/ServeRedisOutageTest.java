package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.Layout;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code snowid serve --node redis://…} processes on a private {@code redis-server} (this
 * test's own, on a free port; without persistence): Redis shuts down under them and comes back
 * empty. Both stop issuing before their leases could expire, {@code /health} says why with a 503,
 * both resume once Redis is back, and no ID is served twice over the whole run.
 */
@Tag("integration")
class ServeRedisOutageTest {
  private static final long TTL = 2_000;
  private static final Duration WITHIN = Duration.ofMinutes(1);

  @TempDir Path dir;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final List<Process> processes = new ArrayList<>();
  private int redisPort;

  @AfterEach
  void stopAll() throws Exception {
    for (Process p : processes) {
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }

  private Process start(Path log, String... command) throws IOException {
    Process p =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    processes.add(p);
    return p;
  }

  private Process startRedis() throws Exception {
    Process p =
        start(
            dir.resolve("redis.log"),
            "redis-server",
            "--port",
            Integer.toString(redisPort),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            dir.toString());
    long deadline = System.nanoTime() + WITHIN.toNanos();
    while (!redisCli("ping").equals("PONG")) {
      assertThat(p.isAlive()).as("redis-server started").isTrue();
      assertThat(System.nanoTime()).as("redis-server answers").isLessThan(deadline);
      Thread.sleep(20);
    }
    return p;
  }

  private String redisCli(String... args) throws Exception {
    List<String> command =
        new ArrayList<>(List.of("redis-cli", "-h", "127.0.0.1", "-p", "" + redisPort));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    p.waitFor(30, TimeUnit.SECONDS);
    return out;
  }

  /** A {@code snowid serve} process and everything its ID requests got. */
  private final class Server {
    final Process process;
    final URI uri;
    final ConcurrentLinkedQueue<Long> ids = new ConcurrentLinkedQueue<>();
    final AtomicBoolean stop = new AtomicBoolean();
    final Thread client;
    final Path log;

    Server(int n, String node) throws Exception {
      log = dir.resolve("serve-" + n + ".err");
      process =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-cp",
                  System.getProperty("java.class.path"),
                  SnowIdCommand.class.getName(),
                  "serve",
                  "--port",
                  "0",
                  "--node",
                  node,
                  "--layout",
                  "twitter")
              .redirectError(log.toFile())
              .start();
      processes.add(process);
      String line =
          new BufferedReader(
                  new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))
              .readLine();
      assertThat(line).as(stderr()).isNotNull();
      Matcher m = Pattern.compile("snowid serving on (http://\\S+)").matcher(line);
      assertThat(m.find()).as(line).isTrue();
      uri = URI.create(m.group(1));
      client = new Thread(this::takeIds, "client of " + uri);
      client.start();
    }

    /** Asks for 50 IDs at a time, as fast as answers come; keeps what a 200 brought. */
    private void takeIds() {
      while (!stop.get()) {
        try {
          HttpResponse<String> r = get("ids?count=50");
          if (r.statusCode() == 200) {
            for (String id : r.body().trim().split("\\s+", -1)) {
              ids.add(Long.parseLong(id));
            }
          } else {
            Thread.sleep(5);
          }
        } catch (IOException e) {
          return; // the server stopped
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
      return http.send(
          HttpRequest.newBuilder(uri.resolve(path)).timeout(Duration.ofSeconds(10)).build(),
          HttpResponse.BodyHandlers.ofString());
    }

    /** Waits until /health answers with this status, and returns the answer. */
    HttpResponse<String> awaitHealth(int status) throws Exception {
      long deadline = System.nanoTime() + WITHIN.toNanos();
      while (true) {
        HttpResponse<String> r = get("health");
        if (r.statusCode() == status) {
          return r;
        }
        assertThat(System.nanoTime())
            .as("/health %d; last %s", status, r.body())
            .isLessThan(deadline);
        Thread.sleep(20);
      }
    }

    /** Waits until the server served IDs with times after {@code millis}. */
    void awaitIdsAfter(long millis) throws Exception {
      long deadline = System.nanoTime() + WITHIN.toNanos();
      while (ids.stream().noneMatch(id -> timeOf(id) > millis)) {
        assertThat(System.nanoTime())
            .as("IDs served after " + millis + "; " + stderr())
            .isLessThan(deadline);
        Thread.sleep(20);
      }
    }

    void stop() throws Exception {
      stop.set(true);
      client.join();
      process.destroy(); // SIGTERM
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(process.exitValue()).as(stderr()).isZero();
    }

    String stderr() {
      try {
        return Files.readString(log);
      } catch (IOException e) {
        return e.toString();
      }
    }
  }

  private static long timeOf(long id) {
    return Layout.twitter().decode(id).timestampMillis();
  }

  @Test
  void serve_redisDownAndBackEmpty_health503WhileDownThenBothResumeWithoutDuplicates()
      throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      redisPort = s.getLocalPort();
    }
    Process redis = startRedis();
    // limits as tight as the lease: after the empty restart the servers wait 5 s, not 41 s
    String node = "redis://127.0.0.1:" + redisPort + "?namespace=serve&ttl=2s&maxTtl=2s&maxSkew=1s";
    List<Server> servers = List.of(new Server(0, node), new Server(1, node));
    for (Server s : servers) {
      s.awaitHealth(200);
      s.awaitIdsAfter(0);
    }

    assertThat(redisCli("shutdown", "nosave")).isEmpty();
    assertThat(redis.waitFor(30, TimeUnit.SECONDS)).isTrue();
    long down = System.currentTimeMillis(); // every lease was last renewed before this
    for (Server s : servers) {
      String health = s.awaitHealth(503).body();
      assertThat(health).contains("\"status\":\"DOWN\"").contains("not renewed in time");
      assertThat(s.get("id").statusCode()).isEqualTo(503);
    }
    long restarted = System.currentTimeMillis();
    startRedis();
    for (Server s : servers) {
      s.awaitHealth(200);
      s.awaitIdsAfter(restarted);
    }
    for (Server s : servers) {
      s.stop();
    }

    List<Long> all = new ArrayList<>();
    servers.forEach(s -> all.addAll(s.ids));
    assertThat(all).doesNotHaveDuplicates();
    // served nothing from when the leases could have expired until Redis was back
    assertThat(all).noneMatch(id -> timeOf(id) >= down + TTL && timeOf(id) <= restarted);
  }
}
