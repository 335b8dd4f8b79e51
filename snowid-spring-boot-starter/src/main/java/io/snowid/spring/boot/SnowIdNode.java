package io.snowid.spring.boot;

import io.snowid.Layout;
import io.snowid.Snowflake;
import io.snowid.SnowflakeBuilder;
import io.snowid.TimeSource;
import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseCoordinators;
import io.snowid.lease.LeaseOptions;
import io.snowid.node.NodeLease;
import java.util.List;
import org.springframework.context.SmartLifecycle;

/**
 * The starter's generator with what it holds: built from the properties at start (the node lease
 * acquired, or the start fails with the reason), closed with the application context — the
 * generator first, then its lease is released, then the coordinator's connection is closed. No JVM
 * shutdown hook: the context's close is the one owner of this lifecycle.
 */
final class SnowIdNode implements AutoCloseable, SmartLifecycle {
  /*
   * Why a lifecycle phase. The context stops its SmartLifecycle beans, highest phase first,
   * before it destroys any bean, and some of the connections a lease runs on stop there: Spring
   * Data Redis's LettuceConnectionFactory (phase 0) shuts its client down, and a release sent
   * after that never reaches Redis (the id would stay taken for one lease time). So the node
   * closes in a phase of its own: after the web server has stopped taking and finished its
   * requests (Boot's graceful shutdown, MAX_VALUE - 1024) and the task executors (MAX_VALUE),
   * before the connections at phase 0 and below. Bean destruction (close() again) is then a no-op;
   * it stays as the fallback for a context that is closed without being started.
   */
  static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

  private final String name; // null: the unnamed generator
  private final Snowflake snowflake;
  private final NodeLease lease; // null: the generator owns its lease (or has none)
  private final LeaseCoordinator coordinator; // null: as lease
  private final CountedIdGenerator counted;
  private volatile boolean closed;

  private SnowIdNode(
      String name, Snowflake snowflake, NodeLease lease, LeaseCoordinator coordinator) {
    this.name = name;
    this.snowflake = snowflake;
    this.lease = lease;
    this.coordinator = coordinator;
    this.counted = new CountedIdGenerator(snowflake);
  }

  /**
   * Builds the generator of the properties.
   *
   * @throws io.snowid.InvalidSettingException for a node source no one handles
   * @throws io.snowid.node.NodeIdUnavailableException if no node id can be had (a coordinator out
   *     of reach, every id held)
   */
  static SnowIdNode start(SnowIdProperties p, List<LeaseConnection> connections) {
    return start(null, p, connections);
  }

  /**
   * Builds the generator {@code snowid.generators.<name>} (null: the unnamed one) of {@code p}, its
   * settings with what it takes from the top level ({@link GeneratorProperties#inheriting}).
   */
  static SnowIdNode start(String name, GeneratorProperties p, List<LeaseConnection> connections) {
    Layout layout = Layout.preset(p.getLayout());
    TimeSource time =
        p.getClock().getSource() == SnowIdProperties.ClockSource.WALL_CLOCK
            ? TimeSource.wallClock()
            : TimeSource.monotonic();
    SnowflakeBuilder builder =
        Snowflake.builder()
            .layout(layout)
            .node(p.getFields())
            .timeSource(time)
            .clockPolicy(p.getClock().getPolicy())
            .maxWait(p.getClock().getMaxWait())
            .maxLead(p.getLead());
    String prefix = name == null ? "snowid." : GeneratorNames.prefix(name);
    String spec = NodeSpec.of(p, prefix);
    LeaseConnection connection = NodeSpec.connection(spec, connections, prefix + "node");
    if (connection == null) {
      return new SnowIdNode(name, builder.nodeSource(spec).build(), null, null);
    }
    LeaseOptions options = LeaseOptions.parse(spec, connection.defaultTtl());
    LeaseCoordinator coordinator = connection.open(NodeSpec.query(options.base()));
    NodeLease lease = null;
    try {
      lease = LeaseCoordinators.lease(coordinator, options, layout, p.getFields(), time);
      return new SnowIdNode(name, builder.lease(lease).build(), lease, coordinator);
    } catch (RuntimeException e) {
      if (lease != null) {
        lease.close();
      }
      coordinator.close();
      throw e;
    }
  }

  Snowflake snowflake() {
    return snowflake;
  }

  /** {@code snowid.generators.<name>}'s name; null for the unnamed generator. */
  String name() {
    return name;
  }

  /** The named generator's {@code IdGenerator} bean: its IDs, counted for its meter. */
  CountedIdGenerator counted() {
    return counted;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    snowflake.close(); // idempotent: fences it, with the time of the close
    if (lease != null) {
      lease.close(); // idempotent: releases, recording what was really issued
      coordinator.close();
    }
  }

  /** Started when built: nothing to do. */
  @Override
  public void start() {}

  @Override
  public void stop() {
    close();
  }

  @Override
  public boolean isRunning() {
    return !closed;
  }

  @Override
  public int getPhase() {
    return PHASE;
  }
}
