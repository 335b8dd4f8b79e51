package io.snowid.cli;

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
      RangeCommand.class,
      LeasesCommand.class,
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
    PrintWriter out = Stdout.open();
    PrintWriter err =
        new PrintWriter(new OutputStreamWriter(System.err, Charset.defaultCharset()), true);
    int code = execute(out, err, args);
    err.flush();
    System.exit(code);
  }

  /**
   * Runs a command line; returns the exit code. Output that could not be written makes a success a
   * failure (exit 1, one line), whatever the command: help and version text included.
   */
  static int execute(PrintWriter out, PrintWriter err, String... args) {
    int code = commandLine(out, err).execute(args);
    if (out.checkError() && code == 0) { // flushes first
      err.println(
          Errors.line(new OutputFailedException(out instanceof Stdout s ? s.failure() : null)));
      err.flush();
      return Errors.FAILURE;
    }
    return code;
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
    // picocli takes any argument after a help command, so "generate-completion --hlep" would print
    // the script; as an ordinary command it refuses unknown options like every other
    cl.getSubcommands().get("generate-completion").getCommandSpec().helpCommand(false);
    return cl;
  }
}
