package io.snowid;

import io.snowid.lease.LeaseLostException;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * One process of {@link MultiProcessTest}: takes IDs from {@link SnowId#next()} for a while, in
 * bursts, and appends them to a file as big-endian longs. Arguments: the output file, the most
 * milliseconds to run, and optionally (non-empty) a file whose appearance ends the run earlier.
 */
public final class MultiProcessMain {
  private MultiProcessMain() {}

  /** As an application would: a fenced generator (e.g. a starved renewal thread) is retried. */
  private static long next() throws InterruptedException {
    for (; ; ) {
      try {
        return SnowId.next();
      } catch (LeaseLostException e) {
        System.err.println("retrying: " + e.getMessage());
        Thread.sleep(10);
      }
    }
  }

  public static void main(String[] args) throws IOException, InterruptedException {
    String out = args[0];
    long until = System.nanoTime() + Long.parseLong(args[1]) * 1_000_000L;
    Path stop = args.length > 2 && !args[2].isEmpty() ? Paths.get(args[2]) : null;
    try (DataOutputStream data =
        new DataOutputStream(new BufferedOutputStream(new FileOutputStream(out), 1 << 16))) {
      boolean announced = false;
      while (System.nanoTime() < until && (stop == null || !Files.exists(stop))) {
        for (int i = 0; i < 200; i++) {
          data.writeLong(next());
        }
        data.flush();
        if (!announced) {
          System.out.println("ready " + SnowId.generator().node());
          System.out.flush();
          announced = true;
        }
        Thread.sleep(1);
      }
    }
  }
}
