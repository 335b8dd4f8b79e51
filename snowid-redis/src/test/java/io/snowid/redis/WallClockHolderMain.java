package io.snowid.redis;

import io.snowid.SnowIdException;
import io.snowid.Snowflake;
import io.snowid.TimeSource;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * A holder process for {@link RedisWallClockFenceRegressionTest}: takes IDs from a generator on
 * {@link TimeSource#wallClock()} (args: lease URI, layout, clock policy, output file) until it is
 * killed, about 10,000 a second. For each ID it appends three big-endian longs to the file, each
 * record in one write (a kill loses no finished record): {@code System.nanoTime()} read just before
 * {@code nextId()} was called, the ID, and {@code System.nanoTime()} read just after it returned.
 * The monotonic clock is the host's, shared with the test (libfaketime leaves it real with {@code
 * FAKETIME_DONT_FAKE_MONOTONIC=1}). Prints {@code ready} after its first ID and {@code refused
 * NANOS CLASS: MESSAGE} whenever a refusal differs from the one before.
 */
public final class WallClockHolderMain {
  private WallClockHolderMain() {}

  public static void main(String[] args) throws IOException {
    // Not closed: the test kills this process; a release would wait for the stopped registry.
    Snowflake gen =
        Snowflake.builder()
            .layout(args[1])
            .timeSource(TimeSource.wallClock())
            .clockPolicy(args[2])
            .maxWait(Duration.ofSeconds(10))
            .nodeSource(args[0])
            .build();
    ByteBuffer record = ByteBuffer.allocate(24);
    String refused = "";
    boolean ready = false;
    try (FileOutputStream out = new FileOutputStream(args[3])) {
      while (true) {
        try {
          long before = System.nanoTime();
          long id = gen.nextId();
          long after = System.nanoTime();
          record.clear();
          record.putLong(before).putLong(id).putLong(after);
          out.write(record.array());
          if (!ready) {
            say("ready " + gen.node());
            ready = true;
          }
          refused = "";
          LockSupport.parkNanos(50_000);
        } catch (SnowIdException e) {
          String why = e.getClass().getSimpleName() + ": " + e.getMessage();
          if (!why.equals(refused)) {
            say("refused " + System.nanoTime() + " " + why);
            refused = why;
          }
          LockSupport.parkNanos(1_000_000);
        }
      }
    }
  }

  private static void say(String line) {
    System.out.println(line);
    System.out.flush();
  }
}
