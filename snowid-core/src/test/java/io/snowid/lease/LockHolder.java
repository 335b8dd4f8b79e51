package io.snowid.lease;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Another process that holds an exclusive OS lock on a file until it is closed: a live holder that
 * is not this JVM (locks of this JVM would show as overlapping instead).
 */
final class LockHolder implements AutoCloseable {
  private final Process process;

  private LockHolder(Process process) {
    this.process = process;
  }

  /** Starts a JVM that locks {@code file} and returns once it holds the lock. */
  static LockHolder lock(Path file) throws IOException {
    List<String> command =
        List.of(
            Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx32m",
            "-cp",
            System.getProperty("java.class.path"),
            LockHolder.class.getName(),
            file.toString());
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String line = out.readLine();
    assertThat(line).as("the lock holder's first line").isEqualTo("locked");
    return new LockHolder(p);
  }

  /** Closes its standard input: it lets the lock go and exits. */
  @Override
  public void close() throws IOException {
    process.getOutputStream().close();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /** The child: locks args[0], says so, and holds it until its standard input ends. */
  public static void main(String[] args) throws IOException {
    try (FileChannel ch = FileChannel.open(Paths.get(args[0]), StandardOpenOption.WRITE);
        FileLock lock = ch.lock()) {
      System.out.println(lock.isValid() ? "locked" : "not locked");
      System.out.flush();
      while (System.in.read() >= 0) {
        // until the test closes our standard input
      }
    }
  }
}
