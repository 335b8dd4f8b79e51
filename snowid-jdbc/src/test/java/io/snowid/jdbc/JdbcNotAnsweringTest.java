package io.snowid.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;

/**
 * Which driver failures a starting lease waits out ({@code connectWait}) and which fail at once:
 * the texts and SQLSTATEs of PgJDBC and MariaDB Connector/J (the retries themselves run against
 * real servers in JdbcConnectWaitTest).
 */
class JdbcNotAnsweringTest {
  private static SQLException sql(String message, String state, Throwable cause) {
    return new SQLException(message, state, cause);
  }

  @Test
  void connectionRefusedOrTimedOut_isWaitedOut() {
    assertThat(
            Database.notAnswering(
                sql(
                    "Connection to 127.0.0.1:1 refused",
                    "08001",
                    new ConnectException("Connection refused"))))
        .isTrue();
    assertThat(Database.notAnswering(new SQLTransientConnectionException("request timed out")))
        .isTrue();
    assertThat(Database.notAnswering(sql("the database system is starting up", "57P03", null)))
        .isTrue();
    assertThat(Database.notAnswering(sql("Too many connections", "08004", null))).isTrue();
  }

  @Test
  void passwordMissingOrRefused_failsAtOnce() {
    assertThat(
            Database.notAnswering(
                sql(
                    "The server requested SCRAM-based authentication, but no password was provided.",
                    "08004",
                    null)))
        .isFalse();
    assertThat(
            Database.notAnswering(
                sql("password authentication failed for user \"x\"", "28P01", null)))
        .isFalse();
    assertThat(Database.notAnswering(sql("Access denied for user 'x'@'localhost'", "28000", null)))
        .isFalse();
  }

  @Test
  void unknownHostOrMissingDatabase_failsAtOnce() {
    assertThat(
            Database.notAnswering(
                sql(
                    "The connection attempt failed.",
                    "08001",
                    new UnknownHostException("no-such-host.invalid"))))
        .isFalse();
    assertThat(Database.notAnswering(sql("database \"nope\" does not exist", "3D000", null)))
        .isFalse();
    assertThat(Database.notAnswering(sql("Unknown database 'nope'", "42000", null))).isFalse();
  }
}
