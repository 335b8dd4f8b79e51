package io.snowid.spring.boot;

import io.snowid.lease.LeaseCoordinator;
import java.time.Duration;

/**
 * A lease coordinator on a connection the application already has, chosen by a word as {@code
 * snowid.node}. The starter defines {@code datasource} (snowid-jdbc on the application's {@code
 * DataSource}) and {@code redis-connection} (snowid-redis on Spring Data Redis's Lettuce
 * connection); a bean of this type adds another word.
 */
public interface LeaseConnection {
  /** The word of {@code snowid.node} that chooses this connection, e.g. {@code datasource}. */
  String name();

  /** The coordinator's default lease time, when {@code snowid.lease.ttl} does not set one. */
  Duration defaultTtl();

  /**
   * Opens a coordinator on the connection. Closing the coordinator must leave the application's
   * connection as it was.
   *
   * @param options the coordinator's own options: the query of {@code snowid.node} without the
   *     lease options ({@code "table=ids"} for {@code datasource?table=ids}), {@code ""} for none
   * @throws io.snowid.InvalidSettingException for an option it does not know
   * @throws io.snowid.node.NodeIdUnavailableException if the connection's server cannot be reached
   */
  LeaseCoordinator open(String options);
}
