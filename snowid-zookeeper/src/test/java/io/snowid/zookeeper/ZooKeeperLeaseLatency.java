package io.snowid.zookeeper;

import io.snowid.testkit.LeaseLatency;
import org.apache.zookeeper.ZooKeeper;

/**
 * Latency of the ZooKeeper lease calls, one caller, against a ZooKeeper on 127.0.0.1 (default port
 * 2181): what BENCHMARKS.md, "ZooKeeper leases", records. Not a test; run it with the module's test
 * class path:
 *
 * <pre>
 * java -cp … io.snowid.zookeeper.ZooKeeperLeaseLatency [PORT [SAMPLES]]    e.g. 2181 5000
 * </pre>
 *
 * The rows and how they are timed: {@link LeaseLatency}.
 */
public final class ZooKeeperLeaseLatency {
  private ZooKeeperLeaseLatency() {}

  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 2181;
    int samples = args.length > 1 ? Integer.parseInt(args[1]) : 5_000;
    String connect = "127.0.0.1:" + port;
    String root = TestZooKeeper.uniqueRoot();
    TestZooKeeper.putInService(connect, root);
    try (ZooKeeperLeaseCoordinator c =
            ZooKeeperLeaseCoordinator.open("zookeeper://" + connect + root);
        ZooKeeper zk = TestZooKeeper.client(connect)) {
      LeaseLatency latency = new LeaseLatency(c, c::roundTrips, "requests", samples);
      latency.floor("exists (floor: one read round trip)", () -> zk.exists("/", false));
      latency.standardRows();
    } finally {
      TestZooKeeper.delete(connect, root);
    }
  }
}
