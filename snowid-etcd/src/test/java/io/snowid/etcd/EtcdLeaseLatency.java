package io.snowid.etcd;

import io.etcd.jetcd.Client;
import io.snowid.testkit.LeaseLatency;
import java.util.concurrent.TimeUnit;

/**
 * Latency of the etcd lease calls, one caller, against an etcd on 127.0.0.1 (default port 2379):
 * what BENCHMARKS.md, "etcd leases", records. Not a test; run it with the module's test class path:
 *
 * <pre>
 * java -cp … io.snowid.etcd.EtcdLeaseLatency [PORT [SAMPLES]]    e.g. 2379 2000
 * </pre>
 *
 * The rows and how they are timed: {@link LeaseLatency}.
 */
public final class EtcdLeaseLatency {
  private EtcdLeaseLatency() {}

  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 2379;
    int samples = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
    String prefix = TestEtcd.uniquePrefix();
    String uri = "etcd://127.0.0.1:" + port + "?prefix=" + prefix;
    TestEtcd etcd = TestEtcd.shared();
    etcd.putInService(prefix);
    try (EtcdLeaseCoordinator c = EtcdLeaseCoordinator.open(uri);
        Client client = etcd.client()) {
      LeaseLatency latency = new LeaseLatency(c, c::calls, "requests", samples);
      // a linearizable get and a put on a jetcd client of the same kind: one round trip each
      latency.floor(
          "get (floor: one read)",
          () -> client.getKVClient().get(TestEtcd.bytes("latency-probe")).get(5, TimeUnit.SECONDS));
      latency.floor(
          "put (floor: one write)",
          () ->
              client
                  .getKVClient()
                  .put(TestEtcd.bytes("latency-probe"), TestEtcd.bytes("x"))
                  .get(5, TimeUnit.SECONDS));
      client.getKVClient().delete(TestEtcd.bytes("latency-probe")).get(5, TimeUnit.SECONDS);
      latency.standardRows();
    } finally {
      etcd.deletePrefix(prefix);
    }
  }
}
