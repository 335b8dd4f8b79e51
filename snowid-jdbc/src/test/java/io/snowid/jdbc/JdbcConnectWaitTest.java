package io.snowid.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.Snowflake;
import io.snowid.lease.RegistryUnavailableException;
import io.snowid.node.NodeIdUnavailableException;
import io.snowid.testkit.StartDuringOutage;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Starting while the database does not answer yet: a lease retries for {@code connectWait} and
 * starts once it answers; what waiting cannot fix (an unknown host, a refused login, a missing
 * database) fails at once.
 */
@Tag("integration")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class JdbcConnectWaitTest {
  @TempDir Path dir;

  /** Short lease bounds: the fresh namespace's start wait (maxTtl + maxSkew + 1s) stays short. */
  private static final String TERMS = "&ttl=1s&maxTtl=1s&maxSkew=1s";

  /** The outage tests' terms: holders that fence within 2 s of the registry going away. */
  private static final String OUTAGE_TERMS = "&ttl=2s&maxTtl=2s&maxSkew=1s";

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Test
  void build_postgresStartsWithinConnectWait_issuesOnceItAnswers() throws Exception {
    PrivatePostgres pg = PrivatePostgres.create();
    try {
      pg.stopImmediately();
      String uri = pg.url() + "&create=true&connectWait=90s" + TERMS;
      CompletableFuture<Snowflake> building =
          CompletableFuture.supplyAsync(() -> Snowflake.builder().nodeSource(uri).build());
      Thread.sleep(1_500); // a few refused attempts
      assertThat(building).as("still waiting for PostgreSQL").isNotDone();

      pg.start();

      try (Snowflake gen = building.get(90, TimeUnit.SECONDS)) {
        assertThat(gen.nextId()).isPositive();
      }
    } finally {
      pg.close();
    }
  }

  /**
   * PostgreSQL down for 5 s under two running holders while a third process starts: it waits, takes
   * its lease once the database answers, and no ID is issued twice.
   */
  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void start_duringFiveSecondPostgresOutageBesideRunningHolders_issuesOnceItAnswers()
      throws Exception {
    PrivatePostgres pg = PrivatePostgres.create();
    try {
      StartDuringOutage.check(
          pg.url() + "&create=true&namespace=outage&connectWait=60s" + OUTAGE_TERMS,
          new StartDuringOutage.Registry() {
            @Override
            public void stop() throws Exception {
              pg.stopImmediately();
            }

            @Override
            public void start() throws Exception {
              pg.start();
            }
          },
          dir,
          Duration.ofSeconds(5));
    } finally {
      pg.close();
    }
  }

  /** As the PostgreSQL one, on a MariaDB of the test's own. */
  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void start_duringFiveSecondMariaDbOutageBesideRunningHolders_issuesOnceItAnswers()
      throws Exception {
    PrivateMariaDb maria = PrivateMariaDb.create();
    try {
      StartDuringOutage.check(
          maria.url() + "&create=true&namespace=outage&connectWait=60s" + OUTAGE_TERMS,
          new StartDuringOutage.Registry() {
            @Override
            public void stop() throws Exception {
              maria.stopImmediately();
            }

            @Override
            public void start() throws Exception {
              maria.start();
            }
          },
          dir,
          Duration.ofSeconds(5));
    } finally {
      maria.close();
    }
  }

  @Test
  void build_nothingListensAndConnectWaitZero_failsAtOnceAsUnavailable() throws Exception {
    int port = freePort();

    assertThatThrownBy(
            () ->
                Snowflake.builder()
                    .nodeSource(
                        "jdbc:postgresql://127.0.0.1:"
                            + port
                            + "/test?user=postgres&connectWait=0s")
                    .build())
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("cannot be reached")
        .hasMessageNotContaining("connectWait");
  }

  @Test
  void build_nothingListensPastConnectWait_failsNamingConnectWait() throws Exception {
    int port = freePort();

    assertThatThrownBy(
            () ->
                Snowflake.builder()
                    .nodeSource(
                        "jdbc:postgresql://127.0.0.1:"
                            + port
                            + "/test?user=postgres&connectWait=1s")
                    .build())
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("no answer within connectWait 1s");
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void build_serverThatAcceptsAndNeverAnswers_failsAfterConnectWait() throws Exception {
    try (ServerSocket silent = new ServerSocket(0)) {
      List<Socket> accepted = new ArrayList<>();
      Thread acceptor =
          new Thread(
              () -> {
                try {
                  while (true) {
                    accepted.add(silent.accept()); // kept open, never written to
                  }
                } catch (IOException closed) {
                  // the test is over
                }
              });
      acceptor.setDaemon(true);
      acceptor.start();
      String uri =
          "jdbc:postgresql://127.0.0.1:"
              + silent.getLocalPort()
              + "/test?user=postgres&connectWait=1s";

      assertThatThrownBy(() -> Snowflake.builder().nodeSource(uri).build())
          .isInstanceOf(RegistryUnavailableException.class)
          .hasMessageContaining("no answer within connectWait 1s");
    }
  }

  @Test
  void build_missingDatabase_failsAtOnceWithoutWaiting() {
    assertThatThrownBy(
            () ->
                Snowflake.builder()
                    .nodeSource(
                        "jdbc:postgresql://127.0.0.1:5432/no_such_database?user=postgres"
                            + "&connectWait=10m")
                    .build())
        .isInstanceOf(NodeIdUnavailableException.class)
        .isNotInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("no_such_database");
  }

  @Test
  void build_refusedLogin_failsAtOnceWithoutWaitingOrShowingThePassword() {
    assertThatThrownBy(
            () ->
                Snowflake.builder()
                    .nodeSource(
                        "jdbc:mariadb://127.0.0.1:3306/test?user=no_such_user"
                            + "&password=wrong-secret&connectWait=10m")
                    .build())
        .isInstanceOf(NodeIdUnavailableException.class)
        .isNotInstanceOf(RegistryUnavailableException.class)
        .hasMessageNotContaining("wrong-secret");
  }

  @Test
  void build_unknownHost_failsAtOnceWithoutWaiting() {
    assertThatThrownBy(
            () ->
                Snowflake.builder()
                    .nodeSource(
                        "jdbc:postgresql://no-such-host.invalid:5432/test?user=postgres"
                            + "&connectWait=10m")
                    .build())
        .isInstanceOf(NodeIdUnavailableException.class)
        .isNotInstanceOf(RegistryUnavailableException.class);
  }
}
