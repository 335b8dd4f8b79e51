package io.snowid.testkit;

import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseListing;
import io.snowid.lease.LeaseTerms;
import io.snowid.node.NodeIdUnavailableException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Wraps a {@link LeaseCoordinator} to inject faults: renewals that fail as if the coordinator were
 * unreachable (all, or those sent at a clock reading below a bound), and a coordinator clock
 * shifted by a skew.
 */
public final class FaultyCoordinator implements LeaseCoordinator {
  private final LeaseCoordinator delegate;
  private final AtomicBoolean failRenewals = new AtomicBoolean();
  private final AtomicLong skewMillis = new AtomicLong();
  private final AtomicLong failSentBelow = new AtomicLong(Long.MIN_VALUE);
  private final AtomicReference<Lease> lastGranted = new AtomicReference<>();

  /** The coordinator the faults are injected in front of. */
  public LeaseCoordinator delegate() {
    return delegate;
  }

  public FaultyCoordinator(LeaseCoordinator delegate) {
    this.delegate = delegate;
  }

  /** From now on every renewal fails (or succeeds again). */
  public FaultyCoordinator failRenewals(boolean fail) {
    failRenewals.set(fail);
    return this;
  }

  /**
   * From now on a renewal whose holder's clock reads below {@code millis} fails as {@link
   * #failRenewals} (a holder whose clock went back meets a registry that went away).
   */
  public FaultyCoordinator failRenewalsSentBelow(long millis) {
    failSentBelow.set(millis);
    return this;
  }

  /** Shifts the coordinator clock reported in every lease by this much. */
  public FaultyCoordinator skew(Duration skew) {
    skewMillis.set(skew.toMillis());
    return this;
  }

  /** The lease of the last acquisition or renewal that succeeded, as the coordinator answered. */
  public Lease lastGranted() {
    return lastGranted.get();
  }

  private Lease shifted(Lease l) {
    lastGranted.set(l);
    long s = skewMillis.get();
    return new Lease(
        l.namespace(),
        l.nodeId(),
        l.instance(),
        l.token(),
        l.coordinatorNowMillis() + s,
        l.expiresAtMillis() + s,
        l.highWaterMillis());
  }

  @Override
  public Lease acquire(AcquireRequest request) {
    return shifted(delegate.acquire(request));
  }

  @Override
  public Lease renew(Lease lease, LeaseTerms terms) {
    if (failRenewals.get() || terms.localNowMillis() < failSentBelow.get()) {
      throw new NodeIdUnavailableException("injected fault: coordinator unreachable");
    }
    return shifted(delegate.renew(lease, terms));
  }

  /**
   * The delegate's answer, or true while a skew is injected: a shifted clock is not the holder's.
   */
  @Override
  public boolean hasOwnClock() {
    return delegate.hasOwnClock() || skewMillis.get() != 0;
  }

  @Override
  public void release(Lease lease, long issuedUpToMillis) {
    delegate.release(lease, issuedUpToMillis);
  }

  /** The delegate's listing, as it is: faults concern the holder's calls only. */
  @Override
  public LeaseListing list(String namespace) {
    return delegate.list(namespace);
  }

  @Override
  public void releaseAbandoned(String namespace, long nodeId) {
    delegate.releaseAbandoned(namespace, nodeId);
  }

  @Override
  public String describe() {
    return "faulty(" + delegate.describe() + ")";
  }

  @Override
  public void close() {
    delegate.close();
  }
}
