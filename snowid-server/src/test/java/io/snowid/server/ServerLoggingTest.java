package io.snowid.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.System.Logger.Level;
import org.junit.jupiter.api.Test;

/**
 * The core logs through {@code System.Logger}; with the server on the class path that goes to
 * SLF4J, configured once (here by the test resources' simplelogger.properties: {@code io.snowid} at
 * INFO, everything else at WARN).
 */
class ServerLoggingTest {
  @Test
  void systemLogger_isRoutedToSlf4j() {
    assertThat(System.LoggerFinder.getLoggerFinder().getClass().getName()).startsWith("org.slf4j.");
  }

  @Test
  void coreLoggers_takeTheirLevelsFromTheSlf4jConfiguration() {
    System.Logger lease = System.getLogger("io.snowid.lease");
    System.Logger other = System.getLogger("org.example.other");

    assertThat(lease.isLoggable(Level.INFO)).isTrue();
    assertThat(lease.isLoggable(Level.DEBUG)).isFalse();
    assertThat(other.isLoggable(Level.INFO)).isFalse();
    assertThat(other.isLoggable(Level.WARNING)).isTrue();
  }
}
