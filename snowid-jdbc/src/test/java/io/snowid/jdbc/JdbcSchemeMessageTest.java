package io.snowid.jdbc;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.InvalidSettingException;
import io.snowid.lease.LeaseCoordinators;
import org.junit.jupiter.api.Test;

/** With snowid-jdbc on the class path, its schemes are offered by name, never by class. */
class JdbcSchemeMessageTest {

  @Test
  void aMisspeltDatabase_getsDidYouMean_andTheJdbcSchemesAreListed() {
    assertThatThrownBy(() -> LeaseCoordinators.provider("jdbc:postgres://db/app"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("jdbc:h2:, jdbc:mariadb:, jdbc:mysql:, jdbc:postgresql:")
        .hasMessageEndingWith("; did you mean jdbc:postgresql:?")
        .hasMessageNotContaining("JdbcLeaseProvider");
  }
}
