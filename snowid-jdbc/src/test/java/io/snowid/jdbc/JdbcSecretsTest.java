package io.snowid.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.snowid.InvalidSettingException;
import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseCoordinators;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A password in any form of a JDBC URL never reaches a message or a description: MariaDB's {@code
 * address=(…)(password=…)} form on the shared server (which ignores a password there), and
 * passwords whose unencoded characters make a driver read a part of them as the host or a
 * parameter.
 */
class JdbcSecretsTest {
  private static final String SECRET = "S3cr3tQ";
  private final String table =
      "snowid_sec_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

  @Tag("integration")
  @Test
  void leaseTableException_addressForm_namesTheDatabaseWithoutThePassword() {
    String uri =
        "jdbc:mariadb://address=(host=127.0.0.1)(port=3306)(user=root)(password="
            + SECRET
            + ")/test?table="
            + table;

    Throwable t = catchThrowable(() -> LeaseCoordinators.open(uri).close());

    assertThat(t).isInstanceOf(LeaseTableException.class);
    assertThat(t.getMessage())
        .startsWith("lease table " + table + " on jdbc:mariadb://address=(host=127.0.0.1)")
        .doesNotContain(SECRET);
    assertThat(((LeaseTableException) t).database()).doesNotContain(SECRET);
  }

  @Tag("integration")
  @Test
  void describe_addressForm_withoutThePassword() {
    String uri =
        "jdbc:mariadb://address=(host=127.0.0.1)(port=3306)(user=root)(password="
            + SECRET
            + ")/test?table="
            + table
            + "&create=true";
    try (LeaseCoordinator c = LeaseCoordinators.open(uri)) {
      assertThat(c.describe())
          .isEqualTo(
              "jdbc:mariadb://address=(host=127.0.0.1)(port=3306)(user=root)(password=***)/test"
                  + "?table="
                  + table);
    } finally {
      dropTable();
    }
  }

  /** / ? # in a userinfo's password: the driver would read a part of it as the port. */
  @Test
  void malformedUserinfo_refusedWithoutAnyPartOfThePassword() {
    for (String pw : new String[] {"S3/cr3tQ", "S3?cr3tQ", "S3#cr3tQ", "S3?cr3tQ=1"}) {
      String uri = "jdbc:mariadb://root:" + pw + "@127.0.0.1:1/test";

      Throwable t = catchThrowable(() -> LeaseCoordinators.open(uri).close());

      assertThat(t).as(uri).isInstanceOf(InvalidSettingException.class);
      assertThat(t.getMessage())
          .as(uri)
          .contains("jdbc:mariadb://127.0.0.1:1/test")
          .doesNotContain("S3")
          .doesNotContain("cr3t");
    }
  }

  /** An unencoded & in a query password: the driver would read the rest as a parameter. */
  @Test
  void ampersandInAQueryPassword_refusedWithoutAnyPartOfIt() {
    String uri = "jdbc:mariadb://127.0.0.1:1/test?user=root&password=S3&cr3tQ";

    Throwable t = catchThrowable(() -> LeaseCoordinators.open(uri).close());

    assertThat(t).isInstanceOf(InvalidSettingException.class);
    assertThat(t.getMessage()).doesNotContain("S3").doesNotContain("cr3t");
  }

  /** MariaDB reads no userinfo: its message quotes the password as a port. */
  @Test
  void driverMessageQuotingThePassword_scrubbed() {
    String uri = "jdbc:mariadb://root:" + SECRET + "@127.0.0.1:1/test";

    Throwable t = catchThrowable(() -> LeaseCoordinators.open(uri).close());

    assertThat(t).isNotNull();
    assertThat(t.getMessage()).doesNotContain(SECRET);
  }

  private void dropTable() {
    try (java.sql.Connection c =
            java.sql.DriverManager.getConnection("jdbc:mariadb://127.0.0.1:3306/test?user=root");
        java.sql.Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS " + table);
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
