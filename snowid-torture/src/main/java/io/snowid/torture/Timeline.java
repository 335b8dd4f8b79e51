package io.snowid.torture;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Pairs of readings of the harness's monotonic clock and its (real, unfaked) wall clock, taken
 * through the run, to map registry times (Redis {@code TIME}, a database's clock: the same real
 * clock) onto the monotonic clock the workers' times are in.
 */
final class Timeline {
  private final List<long[]> samples = new ArrayList<>(); // {monoMicros, wallMicros}

  static long monoMicros() {
    return System.nanoTime() / 1000;
  }

  /** Takes one sample: the wall clock read between two monotonic readings. */
  synchronized void sample() {
    long before = System.nanoTime();
    long wall = System.currentTimeMillis();
    long after = System.nanoTime();
    samples.add(new long[] {(before + after) / 2000, wall * 1000});
  }

  /** The monotonic microseconds of a wall-clock instant (Unix ms), by the nearest sample. */
  synchronized long monoOfWall(long wallMillis) {
    if (samples.isEmpty()) {
      throw new IllegalStateException("no samples");
    }
    long wall = wallMillis * 1000;
    long[] best = samples.get(0);
    for (long[] s : samples) {
      if (Math.abs(s[1] - wall) < Math.abs(best[1] - wall)) {
        best = s;
      }
    }
    return wall - (best[1] - best[0]);
  }

  /** The wall-clock time of a monotonic instant, as Unix ms (for reports). */
  synchronized long wallOfMono(long monoMicros) {
    long[] best = samples.get(0);
    for (long[] s : samples) {
      if (Math.abs(s[0] - monoMicros) < Math.abs(best[0] - monoMicros)) {
        best = s;
      }
    }
    return (monoMicros + (best[1] - best[0])) / 1000;
  }

  synchronized void save(Path file) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (long[] s : samples) {
      sb.append(s[0]).append(' ').append(s[1]).append('\n');
    }
    Files.writeString(file, sb);
  }

  static Timeline load(Path file) throws IOException {
    Timeline t = new Timeline();
    for (String line : Files.readAllLines(file)) {
      if (!line.isBlank()) {
        String[] f = line.trim().split(" ");
        t.samples.add(new long[] {Long.parseLong(f[0]), Long.parseLong(f[1])});
      }
    }
    return t;
  }
}
