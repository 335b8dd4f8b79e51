package io.snowid.lease;

import java.util.List;
import java.util.Optional;

/**
 * The node ids of a namespace that have a record, as {@link LeaseCoordinator#list} read them.
 *
 * @param coordinatorNowMillis the coordinator's clock when it read them (Unix ms): compare the
 *     expiries with it, not with the reader's clock
 * @param leases one entry per id that has a record, ordered by node id
 * @param state what the coordinator records with the namespace; empty where it records nothing
 *     ({@code file:}) or the namespace has no state
 */
public record LeaseListing(
    long coordinatorNowMillis, List<LeaseInfo> leases, Optional<NamespaceState> state) {
  public LeaseListing {
    leases = List.copyOf(leases);
  }

  /** A listing without namespace state. */
  public LeaseListing(long coordinatorNowMillis, List<LeaseInfo> leases) {
    this(coordinatorNowMillis, leases, Optional.empty());
  }
}
