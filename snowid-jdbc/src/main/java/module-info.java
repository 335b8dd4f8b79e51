/**
 * snowid-jdbc: node leases in a SQL table (PostgreSQL, MariaDB/MySQL, H2). Exports its API only:
 * the provider (with its entry point for an application's DataSource) and the table exception.
 */
module io.snowid.jdbc {
  requires transitive io.snowid;
  requires transitive java.sql;
  requires com.zaxxer.hikari;

  exports io.snowid.jdbc;

  provides io.snowid.lease.LeaseCoordinatorProvider with
      io.snowid.jdbc.JdbcLeaseProvider;
}
