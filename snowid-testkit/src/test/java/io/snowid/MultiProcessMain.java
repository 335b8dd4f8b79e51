package io.snowid;

import io.snowid.lease.LeaseLostException;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;

/**
 * One process of {@link MultiProcessTest}: takes IDs from {@link SnowId#next()} for a while, in
 * bursts, and appends them to a file as big-endian longs.
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
    try (DataOutputStream data =
        new DataOutputStream(new BufferedOutputStream(new FileOutputStream(out), 1 << 16))) {
      boolean announced = false;
      while (System.nanoTime() < until) {
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
