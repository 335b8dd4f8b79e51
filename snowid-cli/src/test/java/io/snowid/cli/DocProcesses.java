package io.snowid.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** What a failed example's process leaves to report. */
final class DocProcesses {
  private static final int TAIL_LINES = 6;
  private static final Pattern THREAD = Pattern.compile("^\"([^\"]+)\" #\\d+ (.*)$");

  private DocProcesses() {}

  /** The last lines of {@code text}, joined with " | ", or "(nothing)". */
  static String tail(String text) {
    List<String> lines = text.lines().filter(l -> !l.isBlank()).toList();
    if (lines.isEmpty()) {
      return "(nothing on stderr)";
    }
    return String.join(" | ", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
  }

  /**
   * What a JVM that ended with an exception printed of it: the exception and its causes, each with
   * its first frame in an example's code ({@code doc.…}), without the other frames.
   */
  static String exception(String stderr) {
    List<String> lines =
        stderr
            .lines()
            .filter(l -> !l.isBlank())
            .filter(l -> !l.startsWith("\tat ") || l.startsWith("\tat doc."))
            .filter(l -> !l.startsWith("\t..."))
            .map(String::trim)
            .toList();
    return lines.isEmpty() ? "(nothing on stderr)" : String.join(" | ", lines);
  }

  /**
   * The non-daemon threads of a JVM that did not end: asks it for a thread dump (SIGQUIT), which it
   * prints on its stdout, {@code out}.
   */
  static String liveThreads(Process p, Path out) throws IOException, InterruptedException {
    Process quit = new ProcessBuilder("kill", "-QUIT", Long.toString(p.pid())).start();
    quit.waitFor(10, TimeUnit.SECONDS);
    String threads = "";
    for (int attempt = 0; attempt < 50 && threads.isEmpty(); attempt++) {
      Thread.sleep(100);
      threads =
          Files.readString(out)
              .lines()
              .map(THREAD::matcher)
              .filter(Matcher::matches)
              .filter(m -> !m.group(2).contains("daemon"))
              .map(m -> m.group(1))
              .filter(n -> !n.equals("DestroyJavaVM"))
              .collect(Collectors.joining(", "));
    }
    return threads.isEmpty() ? "unknown" : threads;
  }
}
