package io.snowid.cli;

import io.snowid.Durations;
import io.snowid.node.NodeStatus;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** What every subcommand has: {@code --verbose} and its output streams. */
abstract class SnowIdSubcommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--verbose",
      defaultValue = "${env:SNOWID_VERBOSE:-false}",
      description = "Stack traces on errors, informational logs (env SNOWID_VERBOSE).")
  boolean verbose;

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  PrintWriter err() {
    return spec.commandLine().getErr();
  }

  /**
   * Says on stderr, in one line, when and why the first ID of a generator with status {@code s} has
   * to wait more than a second (a new lease waiting out an earlier holder): a command that prints
   * IDs would otherwise sit silent. With {@code --verbose} the library's own log line says it.
   */
  void announceWait(NodeStatus s) {
    if (verbose || s.waitingUntil() == null) {
      return;
    }
    long ms = s.waitingUntil().toEpochMilli() - System.currentTimeMillis();
    if (ms > 1000) {
      PrintWriter err = err();
      err.println(
          "snowid: waiting "
              + Durations.format(Duration.ofMillis((ms + 50) / 100 * 100))
              + ": "
              + s.detail());
      err.flush();
    }
  }

  /**
   * Flushes standard output.
   *
   * @throws OutputFailedException if anything printed so far could not be written
   */
  void flushOut() {
    PrintWriter out = out();
    if (out.checkError()) { // flushes first
      throw new OutputFailedException(out instanceof Stdout s ? s.failure() : null);
    }
  }
}
