package io.snowid.lease;

import io.snowid.node.NodeIdUnavailableException;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A coordinator in memory for one holder at a time, always of the first id the request allows, that
 * answers with the holder's own clock (as the {@code file:} coordinator does: {@link
 * #hasOwnClock()} is false). Renewals can fail on demand, and an action can run while a call is
 * being answered, e.g. to step the holder's clock mid-call.
 */
final class MemoryCoordinator implements LeaseCoordinator {
  private final AtomicLong renewCalls = new AtomicLong();
  private volatile boolean failRenewals;
  private volatile boolean failReleases;
  private volatile Runnable whileRenewing = () -> {};
  private volatile Runnable whileAcquiring = () -> {};
  private long highWater = Long.MIN_VALUE;
  private String token;
  private long id;

  /** From now on every renewal fails as if the coordinator were unreachable (or succeeds again). */
  MemoryCoordinator failReleases(boolean fail) {
    failReleases = fail;
    return this;
  }

  MemoryCoordinator failRenewals(boolean fail) {
    failRenewals = fail;
    return this;
  }

  /** Runs {@code action} once, inside the next renewal, before it answers. */
  MemoryCoordinator whileNextRenewal(Runnable action) {
    whileRenewing =
        () -> {
          whileRenewing = () -> {};
          action.run();
        };
    return this;
  }

  /** Runs {@code action} once, inside the next acquisition, before it answers. */
  MemoryCoordinator whileNextAcquisition(Runnable action) {
    whileAcquiring =
        () -> {
          whileAcquiring = () -> {};
          action.run();
        };
    return this;
  }

  /** How many renewals were asked for, failed or not. */
  long renewCalls() {
    return renewCalls.get();
  }

  @Override
  public synchronized Lease acquire(AcquireRequest request) {
    LeaseTerms terms = request.terms();
    if (token != null) {
      throw new NodeIdUnavailableException("the only id is held");
    }
    whileAcquiring.run();
    token = UUID.randomUUID().toString();
    long previous = highWater;
    highWater = Math.max(highWater, terms.mayIssueUntilMillis());
    id = request.first();
    return new Lease(
        request.namespace(),
        id,
        request.instance(),
        token,
        terms.localNowMillis(),
        terms.expiresAtMillis(),
        previous);
  }

  @Override
  public synchronized Lease renew(Lease lease, LeaseTerms terms) {
    renewCalls.incrementAndGet();
    if (failRenewals) {
      throw new NodeIdUnavailableException("injected fault: coordinator unreachable");
    }
    if (!lease.token().equals(token)) {
      throw new LeaseTakenException(lease.namespace(), lease.nodeId(), "not held");
    }
    whileRenewing.run();
    highWater = Math.max(highWater, terms.mayIssueUntilMillis());
    return new Lease(
        lease.namespace(),
        lease.nodeId(),
        lease.instance(),
        token,
        terms.localNowMillis(),
        terms.expiresAtMillis(),
        lease.highWaterMillis());
  }

  @Override
  public synchronized void release(Lease lease, long issuedUpToMillis) {
    if (failReleases) {
      throw new RegistryUnavailableException("memory: release refused by the test");
    }
    if (lease.token().equals(token)) {
      highWater = Math.max(highWater, issuedUpToMillis);
      token = null;
    }
  }

  @Override
  public synchronized LeaseListing list(String namespace) {
    long now = System.currentTimeMillis();
    if (token == null && highWater == Long.MIN_VALUE) {
      return new LeaseListing(now, List.of());
    }
    LeaseInfo.State state = token == null ? LeaseInfo.State.RELEASED : LeaseInfo.State.HELD;
    return new LeaseListing(
        now, List.of(new LeaseInfo(namespace, id, "", "", state, Long.MAX_VALUE, highWater)));
  }

  @Override
  public synchronized void releaseAbandoned(String namespace, long nodeId) {
    if (token != null) {
      throw new LeaseTakenException(namespace, nodeId, "held (this coordinator has no expiry)");
    }
  }

  @Override
  public boolean hasOwnClock() {
    return false;
  }

  @Override
  public String describe() {
    return "memory";
  }

  @Override
  public void close() {}
}
