package io.snowid.cli;

import io.snowid.lease.LeaseCoordinators;
import picocli.CommandLine.Option;

/** {@code --node}: where the node id comes from. */
final class NodeOption {
  @Option(
      names = "--node",
      paramLabel = "SOURCE",
      defaultValue = "${env:SNOWID_NODE}",
      description =
          "Where the node id comes from: auto, static:worker=N[,datacenter=N], file:DIR,"
              + " redis://…, jdbc:postgresql://…, jdbc:mariadb://…, zookeeper://… or etcd://…"
              + " (env SNOWID_NODE; default:"
              + " a lease from this host's lease"
              + " directory file:<java.io.tmpdir>/snowid-leases, so processes on one host never"
              + " share an id).")
  String node;

  String get() {
    return node == null || node.isBlank() ? LeaseCoordinators.DEFAULT_FILE_URI : node.trim();
  }
}
