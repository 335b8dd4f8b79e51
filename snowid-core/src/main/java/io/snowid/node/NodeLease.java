package io.snowid.node;

import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * A source of {@link NodeGrant}s that can change while a generator runs: a lease that is renewed,
 * lost (fenced) and acquired again. A {@link io.snowid.Snowflake} built with a lease issues only
 * while the current grant is valid.
 */
public interface NodeLease extends AutoCloseable {
  /**
   * Binds a generator: {@code onGrant} receives the current grant at once and every later grant
   * (renewal, new acquisition) on the lease's thread and must be quick; {@code lastIssuedMillis}
   * tells the lease the latest time the generator issued or reserved, which each renewal and the
   * release record as the node's high-water mark. One generator per lease.
   */
  void attach(Consumer<NodeGrant> onGrant, LongSupplier lastIssuedMillis);

  /**
   * Asks for a renewal at once, out of schedule, and waits for it by parking, a bounded time: about
   * one round trip to the coordinator, at most the lease's retry interval. A generator calls this
   * when it finds the deadline of the current grant passed (its clock stepped forward, a renewal
   * ran late) instead of failing at once; any new grant reaches it through {@code onGrant} before
   * this returns. Concurrent calls share one renewal. An interrupt does not cut the wait short; the
   * interrupt flag is set again before returning.
   *
   * @return true if a grant was published meanwhile; false if none came in time, and at once if the
   *     lease is closed or known lost (taken by another holder, fenced for clock skew). The default
   *     returns false at once: the lease renews on its own schedule only.
   */
  default boolean requestRenewal() {
    return false;
  }

  /** The lease's state, for health checks and metrics. */
  NodeStatus status();

  /** Releases the lease (idempotent). Generators bound to it stop issuing. */
  @Override
  void close();
}
