package io.snowid.torture;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The wall clock of each worker slot, moved with libfaketime: every worker of a slot runs with
 * {@code LD_PRELOAD} of libfaketime and a {@code FAKETIME_TIMESTAMP_FILE} of its slot, which holds
 * the slot's offset from the real clock and is rewritten to step the clock.
 */
final class FakeClocks {
  /*
   * FAKETIME_DONT_FAKE_MONOTONIC=1: CLOCK_MONOTONIC stays real. The JVM hangs otherwise, the
   * default time source's System.nanoTime() must stay real for a step to mean anything, and the
   * workers' ID times (nanoTime) stay comparable with the harness's. FAKETIME_CACHE_DURATION=1:
   * libfaketime reads the file again once whole seconds since its last read exceed 1, so a step
   * takes effect within 2 s of the write (the fault log has the write's time). NO_FAKE_STAT=1:
   * file times stay the kernel's, as on a real host whose clock stepped.
   * FAKETIME_FORCE_MONOTONIC_FIX=0: with that fix (on by
   * default with this glibc) the JVM's timed waits, on the real monotonic clock, return at once and
   * its service threads spin: seconds of CPU at every start, which the stalls measured.
   */
  static final Path LIBRARY = Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1");

  private final Path dir;
  private final Map<Integer, Long> offsets = new HashMap<>();

  /**
   * @param standing each slot's offset when no fault moves it, in milliseconds
   */
  FakeClocks(Path dir, long[] standing) throws IOException {
    this.dir = dir;
    Files.createDirectories(dir);
    for (int slot = 0; slot < standing.length; slot++) {
      write(slot, standing[slot]);
    }
  }

  /** Whether libfaketime is installed ({@code apt-get install faketime}). */
  static boolean available() {
    return Files.isReadable(LIBRARY);
  }

  /** The environment of a worker of the slot. */
  synchronized Map<String, String> environment(int slot) throws IOException {
    Path file = file(slot);
    if (!Files.exists(file)) {
      write(slot, 0);
    }
    return Map.of(
        "LD_PRELOAD", LIBRARY.toString(),
        "FAKETIME_TIMESTAMP_FILE", file.toString(),
        "FAKETIME_DONT_FAKE_MONOTONIC", "1",
        "FAKETIME_CACHE_DURATION", "1",
        "FAKETIME_FORCE_MONOTONIC_FIX", "0",
        "NO_FAKE_STAT", "1");
  }

  /** Moves the slot's clock by {@code millis} (negative: back); returns the new offset. */
  synchronized long step(int slot, long millis) throws IOException {
    long offset = offsets.getOrDefault(slot, 0L) + millis;
    write(slot, offset);
    return offset;
  }

  synchronized long offset(int slot) {
    return offsets.getOrDefault(slot, 0L);
  }

  private void write(int slot, long offsetMillis) throws IOException {
    offsets.put(slot, offsetMillis);
    Path tmp = dir.resolve("clock-" + slot + ".tmp");
    Files.writeString(
        tmp,
        String.format(
            "%s%d.%03d%n",
            offsetMillis < 0 ? "-" : "+",
            Math.abs(offsetMillis) / 1000,
            Math.abs(offsetMillis) % 1000));
    Files.move(tmp, file(slot), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  private Path file(int slot) {
    return dir.resolve("clock-" + slot);
  }
}
