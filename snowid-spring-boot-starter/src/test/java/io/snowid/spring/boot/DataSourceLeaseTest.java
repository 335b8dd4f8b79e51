package io.snowid.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.Layout;
import io.snowid.Snowflake;
import io.snowid.spring.boot.app.Coupons;
import io.snowid.spring.boot.app.Orders;
import io.snowid.spring.boot.app.ShopApplication;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code snowid.node=datasource}: the node id leased in a table of the application's own database
 * through its DataSource (snowid-jdbc), on the real PostgreSQL and on H2. Entities saved from many
 * threads; the lease row is held while the application runs and released when its context closes.
 */
@Tag("integration")
class DataSourceLeaseTest {
  private static final String POSTGRES = "jdbc:postgresql://127.0.0.1:5432/test";
  private static final String TABLE = "snowid_boot_leases";

  @AfterAll
  static void dropTheTable() throws Exception {
    try (Connection c = DriverManager.getConnection(POSTGRES, "postgres", "");
        Statement s = c.createStatement()) {
      s.execute("drop table if exists " + TABLE);
      s.execute("drop table if exists snowid_boot_order");
      s.execute("drop table if exists snowid_boot_coupon");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {POSTGRES, "jdbc:h2:mem:snowid_boot_ds;DB_CLOSE_DELAY=-1"})
  void saveFromManyThreads_leasedInTheApplicationsDatabase(String url) throws Exception {
    ConfigurableApplicationContext context =
        new SpringApplicationBuilder(ShopApplication.class)
            .web(WebApplicationType.NONE)
            .properties(
                "spring.datasource.url=" + url,
                "spring.datasource.username=" + (url.startsWith("jdbc:h2") ? "sa" : "postgres"),
                "spring.jpa.hibernate.ddl-auto=create-drop",
                "spring.data.redis.repositories.enabled=false",
                "snowid.node=datasource?table=" + TABLE + "&create=true",
                "snowid.lease.ttl=1s",
                "snowid.lease.max-ttl=1s",
                "snowid.lease.max-skew=1s",
                "snowid.lease.namespace=boot-test")
            .run();
    Snowflake snowflake;
    try {
      snowflake = context.getBean(Snowflake.class);
      Set<Long> ids =
          ManyThreads.saveAndCheck(
              context.getBean(Orders.class), context.getBean(Coupons.class), 8, 50);

      assertThat(snowflake.nodeStatus().source()).contains(TABLE);
      assertThat(ids)
          .allSatisfy(
              id -> assertThat(Layout.twitter().decode(id).fields()).isEqualTo(snowflake.node()));
      assertThat(heldRows(url)).isEqualTo(1);
    } finally {
      context.close();
    }
    assertThat(snowflake.nodeStatus().held()).isFalse();
    assertThat(heldRows(url)).isZero(); // released when the context closed
  }

  /** Rows of the lease table that name a holder (a lease token) in the test's namespace. */
  private static long heldRows(String url) throws Exception {
    try (Connection c =
            DriverManager.getConnection(url, url.startsWith("jdbc:h2") ? "sa" : "postgres", "");
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "select count(*) from "
                    + TABLE
                    + " where token is not null and node_id >= 0"
                    + " and namespace like 'boot-test%'")) {
      r.next();
      return r.getLong(1);
    }
  }
}
