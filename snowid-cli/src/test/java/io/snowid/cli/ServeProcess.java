package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code snowid serve} in a JVM of its own, started from the test class path as {@code java -cp …
 * io.snowid.cli.SnowIdCommand serve …} runs it; stderr goes to a file.
 */
final class ServeProcess implements AutoCloseable {
  private static final Pattern SERVING = Pattern.compile("snowid serving on (http://\\S+)");

  final Process process;
  final Path stderr;
  final URI base;

  private ServeProcess(Process process, Path stderr, URI base) {
    this.process = process;
    this.stderr = stderr;
    this.base = base;
  }

  /** Starts {@code snowid serve --port 0 ARGS} and waits for its "serving on" line. */
  static ServeProcess start(Path dir, String... args) throws IOException {
    return start(dir, Map.of(), args);
  }

  /** As {@link #start(Path, String...)}, with these environment variables set. */
  static ServeProcess start(Path dir, Map<String, String> env, String... args) throws IOException {
    Path err = Files.createTempFile(dir, "stderr", ".txt");
    ProcessBuilder pb = new ProcessBuilder(command(args)).redirectError(err.toFile());
    pb.environment().putAll(env);
    Process p = pb.start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String line = out.readLine();
    if (line == null) {
      p.destroyForcibly();
      throw new AssertionError("serve ended before serving: " + Files.readString(err));
    }
    Matcher m = SERVING.matcher(line);
    assertThat(m.find()).as(line).isTrue();
    return new ServeProcess(p, err, URI.create(m.group(1)));
  }

  /** {@code java -cp <test class path> SnowIdCommand serve --port 0 ARGS}. */
  static List<String> command(String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(SnowIdCommand.class.getName());
    command.add("serve");
    command.add("--port");
    command.add("0");
    command.addAll(List.of(args));
    return command;
  }

  /** Sends SIGTERM and waits for the exit; returns the exit code. */
  int terminate() throws InterruptedException {
    process.destroy(); // SIGTERM
    assertThat(process.waitFor(90, TimeUnit.SECONDS)).as("exited").isTrue();
    return process.exitValue();
  }

  String stderr() throws IOException {
    return Files.readString(stderr);
  }

  /** The one lease record under {@code dir}. */
  static String leaseRecord(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      List<Path> leases =
          files.filter(f -> f.toString().endsWith(".lease") && Files.isRegularFile(f)).toList();
      assertThat(leases).hasSize(1);
      return Files.readString(leases.get(0));
    }
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }
}
