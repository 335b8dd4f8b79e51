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

  /** The lease's state, for health checks and metrics. */
  NodeStatus status();

  /** Releases the lease (idempotent). Generators bound to it stop issuing. */
  @Override
  void close();
}
