package io.snowid.torture;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** A registry server process the harness started (never a shared one), with its log. */
final class ServerProcess {
  private ServerProcess() {}

  static Process start(List<String> command, Path log, Pids pids) throws IOException {
    Process p =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    pids.add(p.pid());
    return p;
  }

  /** Waits until {@code ready} holds, or fails naming what did not start. */
  static void await(String what, Process p, BooleanSupplier ready, long seconds)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!ready.getAsBoolean()) {
      if (p != null && !p.isAlive()) {
        throw new IOException(what + " exited with code " + p.exitValue() + " (see its log)");
      }
      if (System.nanoTime() > deadline) {
        throw new IOException(what + " did not answer within " + seconds + " s");
      }
      Thread.sleep(20);
    }
  }

  /** Runs a short command; its output (stdout and stderr), trimmed; "" if it could not run. */
  static Result run(List<String> command, long seconds) throws InterruptedException {
    return runWith(command, Map.of(), seconds);
  }

  /** {@link #run} with more environment variables. */
  static Result runWith(List<String> command, Map<String, String> environment, long seconds)
      throws InterruptedException {
    try {
      ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
      pb.environment().putAll(environment);
      Process p = pb.start();
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return new Result(-1, "timed out: " + String.join(" ", command));
      }
      return new Result(
          p.exitValue(), new String(out, java.nio.charset.StandardCharsets.UTF_8).trim());
    } catch (IOException e) {
      return new Result(-1, e.getMessage());
    }
  }

  /** A command's exit code and output. */
  record Result(int code, String output) {
    boolean ok() {
      return code == 0;
    }
  }

  /** Stops a process: SIGTERM, then SIGKILL after {@code seconds}. */
  static void stop(Process p, long seconds) {
    if (p == null || !p.isAlive()) {
      return;
    }
    p.destroy();
    try {
      if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
