package io.snowid.node;

/**
 * A source of {@link NodeGrant}s that can change while a generator runs: a lease that is renewed,
 * lost (fenced) and acquired again. A {@link io.snowid.Snowflake} built with a lease issues only
 * while the current grant is valid.
 */
public interface NodeLease extends AutoCloseable {
  /**
   * Binds a generator: the listener receives the current grant at once and every later grant
   * (renewal, new acquisition); its {@link GrantListener#lastIssuedMillis()} is recorded as the
   * node's high-water mark at each renewal and at the release. One generator per lease.
   *
   * @throws io.snowid.InvalidSettingException if a generator is attached already
   */
  void attach(GrantListener listener);

  /**
   * Asks for a renewal at once, out of schedule, and waits for it by parking, a bounded time: about
   * one round trip to the coordinator, at most the lease's retry interval. A generator calls this
   * when it finds the deadline of the current grant passed (its clock stepped forward, a renewal
   * ran late) instead of failing at once; any new grant reaches its listener before this returns.
   * Concurrent calls share one renewal. An interrupt does not cut the wait short; the interrupt
   * flag is set again before returning.
   *
   * @return true if a grant was published meanwhile; false if none came in time, and at once if the
   *     lease is closed or known lost (taken by another holder, fenced for clock skew). The default
   *     returns false at once: the lease renews on its own schedule only.
   */
  default boolean requestRenewal() {
    return false;
  }

  /**
   * The namespace name the leased values are unique in (the {@code namespace=} option), for the
   * JVM-wide check that no two live generators hold the same values; null (the default) if the
   * lease does not say, which counts as every namespace.
   */
  default String namespace() {
    return null;
  }

  /** The lease's state, for health checks and metrics. */
  NodeStatus status();

  /** Releases the lease (idempotent). Generators bound to it stop issuing. */
  @Override
  void close();
}
