package io.snowid.cli;

import java.io.IOException;

/**
 * Standard output could not be written: what was printed is incomplete. A runtime failure (exit
 * code 1), never reported as success.
 */
final class OutputFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  OutputFailedException(IOException cause) {
    super(
        "cannot write to standard output"
            + (cause == null || cause.getMessage() == null ? "" : " (" + cause.getMessage() + ")")
            + ": the output is incomplete",
        cause);
  }
}
