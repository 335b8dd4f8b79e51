package io.snowid.cli;

import io.snowid.InvalidIdException;
import io.snowid.InvalidSettingException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Every failure is one line on stderr: exit code 2 for bad input (a wrong option, a bad layout, an
 * unreadable ID), 1 for a failure at run time (a coordinator out of reach, a port in use). The
 * stack trace only with {@code --verbose}.
 */
final class Errors implements IParameterExceptionHandler, IExecutionExceptionHandler {
  static final int BAD_INPUT = 2;
  static final int FAILURE = 1;

  @Override
  public int handleParseException(ParameterException ex, String[] args) {
    PrintWriter err = ex.getCommandLine().getErr();
    err.println(line(ex));
    err.flush();
    return BAD_INPUT;
  }

  @Override
  public int handleExecutionException(Exception ex, CommandLine cl, ParseResult parsed) {
    PrintWriter err = cl.getErr();
    err.println(line(ex));
    if (cl.getCommand() instanceof SnowIdSubcommand c && c.verbose) {
      ex.printStackTrace(err);
    }
    err.flush();
    return isBadInput(ex) ? BAD_INPUT : FAILURE;
  }

  static boolean isBadInput(Throwable ex) {
    return ex instanceof InvalidSettingException
        || ex instanceof InvalidIdException
        || ex instanceof ParameterException;
  }

  /** {@code snowid: message}, on one line. */
  static String line(Throwable ex) {
    String message = ex.getMessage();
    if (message == null || message.isBlank()) {
      message = ex.getClass().getSimpleName();
    }
    return "snowid: " + message.replaceAll("\\s*\\R\\s*", " ").trim();
  }
}
