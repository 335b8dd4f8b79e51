package io.snowid.cli;

import java.io.PrintWriter;
import java.util.logging.ConsoleHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The core logs through {@code System.Logger}, that is java.util.logging here: one line per record
 * on stderr, {@code snowid: WARNING: …}. Commands that print IDs show warnings only, {@code serve}
 * and {@code --verbose} show informational lines too.
 */
final class Logs {
  private Logs() {}

  static void configure(boolean informational) {
    Logger root = Logger.getLogger("");
    Level level = informational ? Level.INFO : Level.WARNING;
    root.setLevel(level);
    boolean found = false;
    for (Handler h : root.getHandlers()) {
      if (h instanceof ConsoleHandler) {
        h.setFormatter(new OneLine());
        h.setLevel(level);
        found = true;
      }
    }
    if (!found) {
      ConsoleHandler h = new ConsoleHandler();
      h.setFormatter(new OneLine());
      h.setLevel(level);
      root.addHandler(h);
    }
  }

  private static final class OneLine extends Formatter {
    @Override
    public String format(LogRecord r) {
      String message = formatMessage(r).replaceAll("\\s*\\R\\s*", " ");
      StringBuilder sb = new StringBuilder("snowid: ");
      if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
        sb.append(r.getLevel().getName()).append(": ");
      }
      sb.append(message).append(System.lineSeparator());
      if (r.getThrown() != null && Logger.getLogger("").isLoggable(Level.FINE)) {
        java.io.StringWriter w = new java.io.StringWriter();
        r.getThrown().printStackTrace(new PrintWriter(w));
        sb.append(w);
      }
      return sb.toString();
    }
  }
}
