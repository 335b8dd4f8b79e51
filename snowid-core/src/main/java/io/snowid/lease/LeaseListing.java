package io.snowid.lease;

import java.util.List;

/**
 * The node ids of a namespace that have a record, as {@link LeaseCoordinator#list} read them.
 *
 * @param coordinatorNowMillis the coordinator's clock when it read them (Unix ms): compare the
 *     expiries with it, not with the reader's clock
 * @param leases one entry per id that has a record, ordered by node id
 */
public record LeaseListing(long coordinatorNowMillis, List<LeaseInfo> leases) {
  public LeaseListing {
    leases = List.copyOf(leases);
  }
}
