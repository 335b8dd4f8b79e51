package io.snowid.torture;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * A registry instance of the harness's own (never a shared server), and its own record of who held
 * which node id when.
 */
interface Registry extends AutoCloseable {
  /**
   * {@code file}, {@code redis}, {@code postgresql}, {@code mariadb}, {@code zookeeper}, {@code
   * etcd}.
   */
  String name();

  /** Where a network registry listens; null for {@code file:}. */
  InetSocketAddress endpoint();

  /** The node source URI of a worker that reaches the registry at {@code via}. */
  String uri(InetSocketAddress via, String instance);

  /** Whether {@link #restart()} exists for this registry. */
  boolean restartable();

  /**
   * Stops the registry hard (losing what it does not persist), waits {@code downMillis} and starts
   * it again; returns once it answers.
   */
  void restart(long downMillis) throws IOException, InterruptedException;

  /** Why {@link #rollback} cannot work on this machine (a tool missing), or null when it can. */
  default String cannotRollBack() {
    return null;
  }

  /**
   * A copy of the registry's whole lease state now, for {@link #rollback}; only where {@link
   * #restartable()}.
   */
  Snapshot snapshot() throws IOException;

  /**
   * Puts the registry's lease state back to {@code snapshot} in one step (no client sees a state in
   * between), as a restart from that backup would.
   */
  void rollback(Snapshot snapshot) throws IOException;

  /**
   * A registry's lease state at {@code monoMillis} (the harness's monotonic clock).
   *
   * @param state what the registry needs to put it back
   */
  record Snapshot(long monoMillis, Object state) {}

  /**
   * Stops the registry and returns every hold by its records, in monotonic microseconds (the
   * workers have stopped).
   */
  List<Hold> stopAndReadHolds(Timeline timeline) throws IOException, InterruptedException;

  /**
   * The loss records of a registry whose records carry the finder's clock, as they appeared: {when
   * first seen (monotonic µs), the record's lostAt (Unix ms)}; empty where none is watched.
   */
  default List<long[]> lossRecordsSeen() {
    return List.of();
  }

  /** Stops the registry if it still runs (also after a failed run); never throws. */
  @Override
  void close();

  /** One line on how {@link #holds} knows (for the report). */
  String holdsSource();
}
