package io.snowid.jdbc;

import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseCoordinatorProvider;
import java.time.Duration;
import java.util.Set;
import javax.sql.DataSource;

/**
 * Node leases in a SQL table, for fleets whose database is already there: {@code
 * jdbc:postgresql://HOST[:PORT]/DB}, {@code jdbc:mariadb://…}, {@code jdbc:mysql://…} or {@code
 * jdbc:h2:…}, with snowid's lease options and the driver's own parameters in the same query: {@code
 * jdbc:postgresql://127.0.0.1:5432/test?user=postgres&namespace=orders&ttl=3s}. Options of its own:
 * {@code table=NAME} (default {@code snowid_leases}, optionally {@code schema.name}) and {@code
 * create=true} (create the table when it is missing; otherwise a missing table is a {@link
 * LeaseTableException} that prints the DDL to run). Leases every node field that is not set; lease
 * time 10 s by default.
 *
 * <p>For a URL snowid makes a HikariCP pool of at most two connections; the JDBC driver is yours to
 * put on the class path. An application that has a pool already hands its {@link DataSource} to
 * {@link #open(DataSource, String)} instead.
 */
public final class JdbcLeaseProvider implements LeaseCoordinatorProvider {
  /** For {@link java.util.ServiceLoader}. */
  public JdbcLeaseProvider() {}

  @Override
  public boolean supports(String uri) {
    return JdbcSettings.supports(uri);
  }

  @Override
  public Set<String> schemes() {
    return Set.of("jdbc:postgresql:", "jdbc:mariadb:", "jdbc:mysql:", "jdbc:h2:");
  }

  @Override
  public LeaseCoordinator open(String uri) {
    return JdbcLeaseCoordinator.open(uri);
  }

  /**
   * A lease coordinator on an application's own {@link DataSource} (a Spring Boot or application
   * server pool): the database (PostgreSQL, MariaDB, MySQL or H2) is read from a connection's
   * metadata, and the table is checked (or created) at once. snowid never closes the DataSource:
   * closing the coordinator leaves it open. Every call borrows one connection for one short
   * transaction or statement and returns it; the pool's own connection timeout bounds how long a
   * call may wait for one.
   *
   * <p>Lease the node values with {@link io.snowid.lease.LeaseCoordinators#lease(LeaseCoordinator,
   * io.snowid.lease.LeaseOptions, io.snowid.Layout, java.util.Map, io.snowid.TimeSource)}, which
   * leaves the coordinator open; close it after the generator.
   *
   * @param dataSource the application's pool, autocommit on or off (snowid sets it per call and
   *     restores it)
   * @param options snowid's side of a node URI's query, e.g. {@code
   *     table=snowid_leases&create=true}; may be empty, may start with {@code ?}; snowid's lease
   *     options ({@code namespace}, {@code ttl}, …) may be there too and are checked, but are read
   *     by {@link io.snowid.lease.LeaseOptions}, not here
   * @throws io.snowid.InvalidSettingException if an option is unknown or its value is wrong, or the
   *     database is not one of the four
   * @throws LeaseTableException if the table is missing (without create=true) or not snowid's
   * @throws io.snowid.node.NodeIdUnavailableException if no connection can be had
   */
  public static LeaseCoordinator open(DataSource dataSource, String options) {
    if (dataSource == null) {
      throw new io.snowid.InvalidSettingException("dataSource", null, "a DataSource");
    }
    return JdbcLeaseCoordinator.open(dataSource, options);
  }

  /**
   * 10 s: a holder issues on for up to 8 s after its last renewal (the lease time less
   * LeaseHolder's margin), so a failover or a short lock of the table goes unnoticed; the first
   * holders of a new table wait 11 s once. Renewals cost one small UPDATE every third of it.
   */
  @Override
  public Duration defaultTtl() {
    return Duration.ofSeconds(10);
  }
}
