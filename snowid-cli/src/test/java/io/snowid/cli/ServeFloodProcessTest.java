package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code snowid serve} in a process of its own whose open-file limit is 320 ({@code ulimit -n}),
 * flooded with 600 idle connections from this JVM.
 *
 * <p>By default the connection limit is half the open-file limit (160): the process never runs out
 * of descriptors, and a health check on a new connection is answered during the flood (it closes
 * the oldest idle connection). With a limit set above what the process can open, accepting fails
 * (EMFILE), and the failures are logged in one line per 10 s with a count, not one stack trace per
 * connection; once the flood ends the service answers again.
 */
@Tag("integration")
class ServeFloodProcessTest {
  private static final Pattern SERVING = Pattern.compile("snowid serving on (http://\\S+)");
  private static final int OPEN_FILES = 320;
  private static final int FLOOD = 600;

  @TempDir Path dir;

  @Test
  void defaultLimit_keepsTheProcessWithinItsOpenFiles_andHealthAnswersDuringAFlood()
      throws Exception {
    Served s = serve("--node", "static:worker=11,datacenter=2");
    List<Socket> flood = new ArrayList<>();
    try {
      flood(s.base, flood);

      HttpResponse<String> health = get(s.base, "health");

      assertThat(health.statusCode()).isEqualTo(200);
      String err = Files.readString(s.stderr);
      assertThat(err)
          .doesNotContain("accepting a connection failed")
          .doesNotContain("Accept Failure")
          .doesNotContain("Too many open files");
    } finally {
      close(flood);
      s.process.destroyForcibly();
    }
  }

  @Test
  void limitAboveTheOpenFiles_acceptFailuresAreLoggedInOneLine_andTheServiceRecovers()
      throws Exception {
    Served s = serve("--node", "static:worker=12,datacenter=2", "--max-connections", "10000");
    List<Socket> flood = new ArrayList<>();
    try {
      flood(s.base, flood);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> Files.readString(s.stderr).contains("accepting a connection failed"));
      close(flood);

      HttpResponse<String> health = get(s.base, "health");

      assertThat(health.statusCode()).isEqualTo(200);
      List<String> lines = Files.readAllLines(s.stderr);
      assertThat(lines.stream().filter(l -> l.contains("accepting a connection failed")))
          .as("one line per 10 s, not one per connection")
          .hasSizeBetween(1, 3)
          .allMatch(l -> l.contains("Too many open files"));
      assertThat(lines)
          .noneMatch(l -> l.startsWith("\tat "))
          .noneMatch(l -> l.contains("Accept Failure"));
    } finally {
      close(flood);
      s.process.destroyForcibly();
    }
  }

  private record Served(Process process, Path stderr, URI base) {}

  /** {@code snowid serve --port 0 ARGS} under {@code ulimit -n 320}, once it serves. */
  private Served serve(String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add("bash");
    command.add("-c");
    command.add("ulimit -n " + OPEN_FILES + " && exec \"$@\"");
    command.add("bash");
    command.addAll(ServeProcess.command(args));
    Path err = Files.createTempFile(dir, "stderr", ".txt");
    Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String line = out.readLine();
    if (line == null) {
      p.destroyForcibly();
      throw new AssertionError("serve ended before serving: " + Files.readString(err));
    }
    Matcher m = SERVING.matcher(line);
    assertThat(m.find()).as(line).isTrue();
    return new Served(p, err, URI.create(m.group(1)));
  }

  /** Opens FLOOD idle connections (the kernel completes them whether or not serve accepts). */
  private static void flood(URI base, List<Socket> into) throws IOException {
    for (int i = 0; i < FLOOD; i++) {
      Socket s = new Socket();
      s.connect(new InetSocketAddress(base.getHost(), base.getPort()), 10_000);
      into.add(s);
    }
  }

  private static void close(List<Socket> sockets) throws IOException {
    for (Socket s : sockets) {
      s.close();
    }
    sockets.clear();
  }

  private static HttpResponse<String> get(URI base, String path) throws Exception {
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    return client.send(
        HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
