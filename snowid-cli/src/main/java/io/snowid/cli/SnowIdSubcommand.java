package io.snowid.cli;

import java.io.PrintWriter;
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
