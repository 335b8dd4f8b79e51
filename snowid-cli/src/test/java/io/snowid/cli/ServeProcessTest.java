package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code snowid serve} as its own process: SIGTERM stops it cleanly and frees the node id. */
class ServeProcessTest {
  @TempDir Path dir;

  @Test
  void serve_sigterm_exits0AndReleasesTheLease() throws Exception {
    String node = "file:" + dir + "?namespace=proc";
    Path err = dir.resolve("stderr.txt");
    Process p =
        new ProcessBuilder(
                List.of(
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
                    "westid"))
            .redirectError(err.toFile())
            .start();
    try {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      String line = out.readLine();
      assertThat(line).isNotNull();
      Matcher m = Pattern.compile("snowid serving on (http://\\S+)").matcher(line);
      assertThat(m.find()).as(line).isTrue();
      HttpResponse<String> health =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(m.group(1)).resolve("health")).build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(health.body()).contains("\"values\":{\"worker\":0}");

      p.destroy(); // SIGTERM

      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).isZero();
      assertThat(Files.readString(err)).contains("snowid stopped");
    } finally {
      p.destroyForcibly();
    }
    // Released, not merely dropped by the dying process: the lease file says it ended.
    try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
      List<Path> leases = files.filter(f -> f.toString().endsWith(".lease")).toList();
      assertThat(leases).hasSize(1);
      assertThat(Files.readString(leases.get(0))).contains("expiresAt=" + Long.MIN_VALUE);
    }
  }
}
