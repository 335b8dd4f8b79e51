package io.snowid.testkit;

import io.snowid.Snowflake;
import io.snowid.lease.LeaseCoordinatorProvider;
import io.snowid.lease.LeaseCoordinators;
import io.snowid.lease.LeaseLostException;
import io.snowid.lease.LeaseOptions;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A holder process for the multi-process tests ({@link HolderJvm}): takes IDs from a generator
 * leased on a node URI (args: URI, output file) until its standard input closes, then closes the
 * generator (releasing the lease) and exits 0. Appends the IDs to the file as big-endian longs, and
 * -1 where it was fenced. Prints {@code ready NODE} after its first ID, {@code fenced SINCE_MILLIS
 * REASON} when it is fenced, {@code status DETAIL} whenever the detail of its node status changes
 * while it is fenced (why the lease was not renewed: it may come a moment after the fence), and
 * {@code resumed NODE} when it issues again. With {@value #GO} set to a file's path it first prints
 * {@code waiting for FILE} (once it opened and closed the URI's coordinator, so that its classes
 * are loaded) and builds its generator only once that file exists ({@link HolderJvm#go()}).
 */
public final class HolderMain {
  /** The environment variable naming the file whose creation lets the holder build. */
  static final String GO = "SNOWID_HOLDER_GO";

  private HolderMain() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    Thread stop = new Thread(HolderMain::awaitEndOfInput, "stdin");
    stop.setDaemon(true);
    stop.start();
    String go = System.getenv(GO);
    if (go != null) {
      // the coordinator's classes loaded (a pool, a driver) before the go, not after it
      LeaseCoordinatorProvider provider = LeaseCoordinators.provider(args[0]);
      provider.open(LeaseOptions.parse(args[0], provider.defaultTtl()).base()).close();
      say("waiting for " + go);
      while (!java.nio.file.Files.exists(java.nio.file.Path.of(go))) {
        Thread.sleep(1);
      }
    }
    try (Snowflake gen = Snowflake.builder().layout("twitter").nodeSource(args[0]).build();
        DataOutputStream data =
            new DataOutputStream(
                new BufferedOutputStream(new FileOutputStream(args[1]), 1 << 16))) {
      boolean started = false;
      boolean fenced = false;
      String said = "";
      while (stop.isAlive()) {
        try {
          for (int i = 0; i < 100; i++) {
            data.writeLong(gen.nextId());
          }
          if (!started || fenced) {
            data.flush();
            say((started ? "resumed " : "ready ") + gen.node());
            started = true;
            fenced = false;
          }
        } catch (LeaseLostException e) {
          if (!fenced) {
            data.writeLong(-1);
            data.flush();
            say("fenced " + e.since().toEpochMilli() + " " + e.getMessage());
            fenced = true;
          }
          // why: the detail may come after the fence (a renewal still waiting when the deadline
          // passed), and change while fenced
          String detail = gen.nodeStatus().detail();
          if (!detail.equals(said)) {
            say("status " + detail);
            said = detail;
          }
          Thread.sleep(5);
        }
        Thread.sleep(1);
      }
      data.flush();
    }
  }

  private static void say(String line) {
    System.out.println(line);
    System.out.flush();
  }

  private static void awaitEndOfInput() {
    try (InputStream in = System.in) {
      while (in.read() >= 0) {
        // until the test closes our standard input
      }
    } catch (IOException e) {
      // closed
    }
  }
}
