package io.snowid.lease;

import io.snowid.Layout;
import io.snowid.TimeSource;
import io.snowid.node.FakeHost;
import io.snowid.node.NodeLease;
import java.util.Map;

/**
 * One process of {@link ContainerWarningOnceTest}: two leases from the lease directory given as the
 * argument, on a made-up Docker container whose directory is its own (the default), so each lease's
 * plan has the container WARN; logs go to standard error (java.util.logging's default).
 */
public final class ContainerWarningMain {
  private ContainerWarningMain() {}

  public static void main(String[] args) throws Exception {
    String uri = "file:" + args[0];
    FakeHost container = FakeHost.withAddress("172.17.0.2").docker();
    try (NodeLease a =
            LeaseCoordinators.lease(
                uri, Layout.twitter(), Map.of(), TimeSource.monotonic(), container, uri);
        NodeLease b =
            LeaseCoordinators.lease(
                uri, Layout.twitter(), Map.of(), TimeSource.monotonic(), container, uri)) {
      System.out.println("leased " + (a != b));
    }
  }
}
