package io.snowid.lease;

import io.snowid.node.NodeIdUnavailableException;
import java.time.Duration;

/**
 * Another process of {@link FileLeaseLockTest}: tries to lease an id of a namespace from a lease
 * directory and prints {@code took N} or {@code unavailable}.
 */
public final class FileLeaseProbeMain {
  private FileLeaseProbeMain() {}

  public static void main(String[] args) {
    LeaseCoordinator c = LeaseCoordinators.open("file:" + args[0]);
    long now = System.currentTimeMillis();
    try {
      Lease l =
          c.acquire(
              new AcquireRequest(
                  args[1],
                  Long.parseLong(args[2]),
                  "probe",
                  new LeaseTerms(Duration.ofSeconds(3), now, now)));
      System.out.println("took " + l.nodeId());
    } catch (NodeIdUnavailableException e) {
      System.out.println("unavailable");
    } finally {
      c.close();
    }
  }
}
