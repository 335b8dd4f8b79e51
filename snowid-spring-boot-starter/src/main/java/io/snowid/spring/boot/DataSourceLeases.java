package io.snowid.spring.boot;

import io.snowid.jdbc.JdbcLeaseProvider;
import io.snowid.lease.LeaseCoordinator;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * {@code snowid.node=datasource}: leases in a table of the application's own database, through its
 * {@code DataSource} pool (snowid never closes it).
 */
final class DataSourceLeases implements LeaseConnection {
  private final DataSource dataSource;

  DataSourceLeases(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  @Override
  public String name() {
    return "datasource";
  }

  @Override
  public Duration defaultTtl() {
    return new JdbcLeaseProvider().defaultTtl();
  }

  @Override
  public LeaseCoordinator open(String options) {
    return JdbcLeaseProvider.open(dataSource, options);
  }

  @Override
  public String toString() {
    return "datasource (" + dataSource + ")";
  }
}
