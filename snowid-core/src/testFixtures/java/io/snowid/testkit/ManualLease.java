package io.snowid.testkit;

import io.snowid.node.GrantListener;
import io.snowid.node.NodeGrant;
import io.snowid.node.NodeLease;
import io.snowid.node.NodeStatus;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link NodeLease} driven by hand: the test {@linkplain #grant publishes} grants (renewals, new
 * acquisitions, fences) and reads what the generator reports as issued. A generator's request for a
 * renewal runs the action set by {@link #onRenewalRequest} (by default none: no renewal comes).
 */
public final class ManualLease implements NodeLease {
  private volatile NodeGrant current;
  private volatile GrantListener listener;
  private volatile boolean closed;
  private volatile Runnable onRenewalRequest = () -> {};
  private final AtomicLong renewalRequests = new AtomicLong();
  private final AtomicLong grants = new AtomicLong();

  /** A lease whose generator starts with {@code first}. */
  public ManualLease(NodeGrant first) {
    this.current = first;
  }

  @Override
  public synchronized void attach(GrantListener generator) {
    this.listener = generator;
    generator.onGrant(current);
  }

  /** Publishes a grant to the attached generator, as a renewal or an acquisition would. */
  public synchronized void grant(NodeGrant g) {
    current = g;
    grants.incrementAndGet();
    if (listener != null) {
      listener.onGrant(g);
    }
  }

  /**
   * What a generator's {@link #requestRenewal()} does, on the generator's thread: e.g. {@link
   * #grant} a renewal, or nothing (the default), as a lease whose renewal does not come.
   */
  public ManualLease onRenewalRequest(Runnable action) {
    this.onRenewalRequest = action;
    return this;
  }

  /** How many times a generator asked for a renewal. */
  public long renewalRequests() {
    return renewalRequests.get();
  }

  /** Runs the {@link #onRenewalRequest} action; true if it published a grant. */
  @Override
  public boolean requestRenewal() {
    renewalRequests.incrementAndGet();
    if (closed) {
      return false;
    }
    long before = grants.get();
    onRenewalRequest.run();
    return grants.get() != before;
  }

  /** What the generator reports as the latest time it issued or reserved. */
  public long lastIssuedMillis() {
    return listener == null ? Long.MIN_VALUE : listener.lastIssuedMillis();
  }

  public boolean closed() {
    return closed;
  }

  @Override
  public NodeStatus status() {
    NodeGrant g = current;
    return new NodeStatus(!closed, g.source(), g.values(), null, closed ? "released" : "", 0, 0);
  }

  @Override
  public void close() {
    closed = true;
  }
}
