package io.snowid.cli;

import io.snowid.InvalidIdException;
import io.snowid.InvalidSettingException;
import io.snowid.lease.LeaseDirectoryException;
import io.snowid.lease.Secrets;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Every failure is one line on stderr: exit code 2 for bad input (a wrong option, a bad layout, an
 * unreadable ID, a lease directory that cannot be used), 1 for a failure at run time (a coordinator
 * out of reach, a port in use, output that cannot be written). The stack trace only with {@code
 * --verbose}. Echoed input is cut to a readable length. Neither says a password: what is printed is
 * {@linkplain Secrets#scrub scrubbed} of the passwords of every URI in it and of the command line's
 * and {@code --node}'s URIs.
 */
final class Errors implements IParameterExceptionHandler, IExecutionExceptionHandler {
  static final int BAD_INPUT = 2;
  static final int FAILURE = 1;

  /** Input quoted in a message longer than this is cut. */
  private static final int MAX_ECHO = 64;

  /** A word (no spaces) longer than this in a message is echoed input: cut it. */
  private static final Pattern LONG_WORD = Pattern.compile("\\S{161,}");

  @Override
  public int handleParseException(ParameterException ex, String[] args) {
    PrintWriter err = ex.getCommandLine().getErr();
    err.println(parseLine(ex, args));
    err.flush();
    return BAD_INPUT;
  }

  /**
   * picocli's message, unless a clearer one can be said: the range of a number, the command or
   * option meant.
   */
  private static String parseLine(ParameterException ex, String... uris) {
    if (ex.getCause() instanceof Ranged.OutOfRange r) {
      return line(r, uris);
    }
    if (ex instanceof UnmatchedArgumentException u) {
      Optional<String> unknown = Unknown.line(u, uris);
      if (unknown.isPresent()) {
        return unknown.get();
      }
    }
    return line(ex, uris);
  }

  @Override
  public int handleExecutionException(Exception ex, CommandLine cl, ParseResult parsed) {
    PrintWriter err = cl.getErr();
    String[] uris = uris(cl, parsed);
    err.println(line(ex, uris));
    if (cl.getCommand() instanceof SnowIdSubcommand c && c.verbose) {
      StringWriter trace = new StringWriter();
      ex.printStackTrace(new PrintWriter(trace));
      err.print(Secrets.scrub(trace.toString(), uris));
    }
    err.flush();
    return isBadInput(ex) ? BAD_INPUT : FAILURE;
  }

  /**
   * Input the user can correct: a setting, an ID, or a lease directory that cannot be used as given
   * (not a directory, another user's, …: the fix is another {@code --node} or a {@code chmod}).
   */
  static boolean isBadInput(Throwable ex) {
    return ex instanceof InvalidSettingException
        || ex instanceof InvalidIdException
        || ex instanceof LeaseDirectoryException
        || ex instanceof ParameterException;
  }

  /** The command line's words and {@code --node}'s value (from the environment too). */
  private static String[] uris(CommandLine cl, ParseResult parsed) {
    List<String> uris = new ArrayList<>(parsed.originalArgs());
    CommandLine.Model.OptionSpec node = cl.getCommandSpec().findOption("--node");
    if (node != null && node.getValue() instanceof String value) {
      uris.add(value);
    }
    return uris.toArray(new String[0]);
  }

  /**
   * {@code snowid: message}, on one line, without the passwords of {@code uris} or of a URI it
   * quotes, long echoed input cut.
   */
  static String line(Throwable ex, String... uris) {
    String message = ex.getMessage();
    if (message == null || message.isBlank()) {
      message = ex.getClass().getSimpleName();
    }
    String one = Secrets.scrub(message, uris).replaceAll("\\s*\\R\\s*", " ").trim();
    Matcher m = LONG_WORD.matcher(one);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(sb, Matcher.quoteReplacement(cut(m.group())));
    }
    m.appendTail(sb);
    return "snowid: " + sb;
  }

  /** Input to quote in a message: itself, or its start and its length when it is long. */
  static String cut(String input) {
    if (input.length() <= MAX_ECHO) {
      return input;
    }
    return input.substring(0, MAX_ECHO - 4) + "…(" + input.length() + " characters)";
  }
}
