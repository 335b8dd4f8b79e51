package io.snowid.torture;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The faults as applied, with times: one line per fault when it was healed (or at once for an
 * instant one), {@code KIND TARGET FROM_MICROS TO_MICROS SLOTS MAGNITUDE_MS DETAIL}, where SLOTS
 * are the worker slots it affected (comma-separated, or "all") and MAGNITUDE the clock step or
 * network delay.
 */
final class FaultLog {
  /** An applied fault. */
  record Applied(
      FaultKind kind,
      int target,
      long fromMicros,
      long toMicros,
      String slots,
      long magnitudeMillis,
      String detail) {
    String line() {
      return kind.label()
          + " "
          + target
          + " "
          + fromMicros
          + " "
          + toMicros
          + " "
          + slots
          + " "
          + magnitudeMillis
          + " "
          + detail;
    }

    static Applied parse(String line) {
      String[] f = line.split(" ", 7);
      return new Applied(
          FaultKind.named(f[0]),
          Integer.parseInt(f[1]),
          Long.parseLong(f[2]),
          Long.parseLong(f[3]),
          f[4],
          Long.parseLong(f[5]),
          f.length > 6 ? f[6] : "");
    }

    boolean affects(int slot) {
      if (slots.equals("all")) {
        return true;
      }
      for (String s : slots.split(",")) {
        if (!s.isEmpty() && Integer.parseInt(s) == slot) {
          return true;
        }
      }
      return false;
    }
  }

  private final Path file;
  private final Timeline timeline;

  FaultLog(Path file, Timeline timeline) {
    this.file = file;
    this.timeline = timeline;
  }

  synchronized void add(Applied a) {
    try {
      Files.writeString(
          file,
          a.line() + "\n",
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    System.out.printf(
        "%s applied %s%n", Instant.ofEpochMilli(timeline.wallOfMono(a.fromMicros())), a.line());
  }

  static List<Applied> load(Path file) throws IOException {
    List<Applied> out = new ArrayList<>();
    if (Files.exists(file)) {
      for (String line : Files.readAllLines(file)) {
        if (!line.isBlank()) {
          out.add(Applied.parse(line));
        }
      }
    }
    return out;
  }
}
