package io.snowid.testkit;

import io.snowid.node.NodeGrant;
import io.snowid.node.NodeLease;
import io.snowid.node.NodeStatus;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * A {@link NodeLease} driven by hand: the test {@linkplain #grant publishes} grants (renewals, new
 * acquisitions, fences) and reads what the generator reports as issued.
 */
public final class ManualLease implements NodeLease {
  private volatile NodeGrant current;
  private volatile Consumer<NodeGrant> listener = g -> {};
  private volatile LongSupplier lastIssued = () -> Long.MIN_VALUE;
  private volatile boolean closed;

  /** A lease whose generator starts with {@code first}. */
  public ManualLease(NodeGrant first) {
    this.current = first;
  }

  @Override
  public synchronized void attach(Consumer<NodeGrant> onGrant, LongSupplier lastIssuedMillis) {
    this.listener = onGrant;
    this.lastIssued = lastIssuedMillis;
    onGrant.accept(current);
  }

  /** Publishes a grant to the attached generator, as a renewal or an acquisition would. */
  public synchronized void grant(NodeGrant g) {
    current = g;
    listener.accept(g);
  }

  /** What the generator reports as the latest time it issued or reserved. */
  public long lastIssuedMillis() {
    return lastIssued.getAsLong();
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
