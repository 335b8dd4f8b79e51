package io.snowid.cli;

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The {@code snowid} command. */
@Command(
    name = "snowid",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    usageHelpAutoWidth = true,
    description = {
      "Unique, time-ordered 64-bit IDs (Snowflake): generate, decode, inspect layouts, serve over"
          + " HTTP, measure.",
      "Every option can also be set by the environment variable shown in its description."
    },
    footer = {
      "",
      "Exit codes: 0 success, 2 bad input (one line on stderr), 1 runtime failure.",
      "Shell completion: source <(snowid generate-completion)"
    },
    subcommands = {
      GenerateCommand.class,
      DecodeCommand.class,
      LayoutCommand.class,
      ServeCommand.class,
      BenchCommand.class,
      AutoComplete.GenerateCompletion.class
    })
public final class SnowIdCommand implements Runnable {
  /**
   * Set by {@link #main}: the process and its exit code are the command's. Run inside another
   * program ({@link #execute}), a command leaves the exit to it.
   */
  static volatile boolean ownsProcess;

  @Spec CommandSpec spec;

  /** Without a command: the usage help. */
  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  public static void main(String[] args) {
    ownsProcess = true;
    Charset cs = Charset.defaultCharset();
    PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out, cs)));
    PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, cs), true);
    int code = execute(out, err, args);
    out.flush();
    err.flush();
    System.exit(code);
  }

  /** Runs a command line; returns the exit code. */
  static int execute(PrintWriter out, PrintWriter err, String... args) {
    return commandLine(out, err).execute(args);
  }

  /** The configured command line, writing to {@code out} and {@code err}. */
  static CommandLine commandLine(PrintWriter out, PrintWriter err) {
    CommandLine cl = new CommandLine(new SnowIdCommand());
    Errors errors = new Errors();
    cl.setOut(out);
    cl.setErr(err);
    cl.setParameterExceptionHandler(errors);
    cl.setExecutionExceptionHandler(errors);
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    return cl;
  }
}
