package io.snowid.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.Snowflake;
import io.snowid.lease.RegistryUnavailableException;
import io.snowid.node.NodeIdUnavailableException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Starting while the registry does not answer yet, the same for every network coordinator: a lease
 * retries for {@code connectWait} and starts once the registry answers; with {@code
 * connectWait=0s}, or past it, the start fails saying so; what waiting cannot fix (an unknown host)
 * fails at once. A backend's subclass says how to start a private server of its own and how to
 * write its URI; a refused login is the subclass's own test, as each registry refuses differently
 * (docs/design.md, "Waiting at start: readiness and {@code connectWait}").
 */
@Tag("integration")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
public abstract class ConnectWaitContract {
  @TempDir protected Path dir;

  /** A server of the test's own, stopped and started again on one port. */
  public interface PrivateRegistry extends StartDuringOutage.Registry, AutoCloseable {
    /** Its port on 127.0.0.1, the same after a restart. */
    int port();
  }

  /** Starts a private server in {@code dir} (a directory that exists). */
  protected abstract PrivateRegistry startPrivate(Path dir) throws Exception;

  /**
   * The backend's URI of {@code registry}, in a namespace (prefix, chroot, table) of the test's
   * own, with {@code options} ({@code connectWait=…&ttl=…}) in its query.
   */
  protected abstract String uri(PrivateRegistry registry, String options) throws Exception;

  /** The backend's URI of {@code host:port}, with {@code options} in its query. */
  protected abstract String uriAt(String host, int port, String options);

  /**
   * Lease options that keep a fresh namespace's start wait ({@code maxTtl + maxSkew + 1s}) short;
   * the registry must grant {@code ttl}.
   */
  protected String terms() {
    return "ttl=1s&maxTtl=1s&maxSkew=1s";
  }

  /** Lease options of the holders running through an outage: they fence within a few seconds. */
  protected String outageTerms() {
    return "ttl=2s&maxTtl=2s&maxSkew=1s";
  }

  @Test
  void build_registryStartsWithinConnectWait_issuesOnceItAnswers() throws Exception {
    try (PrivateRegistry registry = startPrivate(Files.createDirectories(dir.resolve("late")))) {
      registry.stop(); // its port is known, nothing listens on it
      String uri = uri(registry, "connectWait=90s&" + terms());
      CompletableFuture<Snowflake> building =
          CompletableFuture.supplyAsync(() -> Snowflake.builder().nodeSource(uri).build());
      Thread.sleep(1_500); // a few refused attempts
      assertThat(building).as("still waiting for the registry").isNotDone();

      registry.start();

      try (Snowflake gen = building.get(90, TimeUnit.SECONDS)) {
        assertThat(gen.nodeStatus().source()).contains(":" + registry.port());
        assertThat(gen.awaitReady(Duration.ofSeconds(30))).isTrue();
        assertThat(gen.nextId()).isPositive();
      }
    }
  }

  /**
   * The registry down for 5 s under two running holders while a third process starts: it waits,
   * takes its lease once the registry answers, and no ID is issued twice.
   */
  @Test
  void start_duringFiveSecondOutageBesideRunningHolders_issuesOnceItAnswers_withoutDuplicates()
      throws Exception {
    try (PrivateRegistry registry = startPrivate(Files.createDirectories(dir.resolve("outage")))) {
      StartDuringOutage.check(
          uri(registry, "connectWait=60s&" + outageTerms()), registry, dir, Duration.ofSeconds(5));
    }
  }

  @Test
  void build_nothingListensAndConnectWaitZero_failsAtOnceAsUnavailable() throws Exception {
    int port = freePort();

    assertThatThrownBy(
            () ->
                Snowflake.builder().nodeSource(uriAt("127.0.0.1", port, "connectWait=0s")).build())
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("127.0.0.1:" + port)
        .hasMessageNotContaining("connectWait");
  }

  @Test
  void build_nothingListensPastConnectWait_failsNamingConnectWait() throws Exception {
    int port = freePort();

    assertThatThrownBy(
            () ->
                Snowflake.builder().nodeSource(uriAt("127.0.0.1", port, "connectWait=1s")).build())
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("127.0.0.1:" + port)
        .hasMessageContaining("no answer within connectWait 1s")
        .hasMessageContaining("raise it with connectWait=");
  }

  /** A server that takes the connection and never says a word: the start still ends. */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void build_serverThatAcceptsAndNeverAnswers_failsAfterConnectWait() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      List<Socket> accepted = new CopyOnWriteArrayList<>();
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
              },
              "silent server");
      acceptor.setDaemon(true);
      acceptor.start();
      String uri = uriAt("127.0.0.1", silent.getLocalPort(), "connectWait=1s");

      assertThatThrownBy(() -> Snowflake.builder().nodeSource(uri).build())
          .isInstanceOf(RegistryUnavailableException.class)
          .hasMessageContaining("no answer within connectWait 1s");
      assertThat(accepted).as("connections the coordinator opened").isNotEmpty();
      for (Socket s : accepted) {
        s.close();
      }
    }
  }

  @Test
  void build_unknownHost_failsAtOnceWithoutWaiting() {
    assertThatThrownBy(
            () ->
                Snowflake.builder()
                    .nodeSource(uriAt("no-such-host.invalid", 1, "connectWait=10m"))
                    .build())
        .isInstanceOf(NodeIdUnavailableException.class)
        .isNotInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("no-such-host.invalid");
  }

  @Test
  void connectWait_outOfRange_refusedNamingTheOption() {
    assertThatThrownBy(
            () ->
                Snowflake.builder()
                    .nodeSource(uriAt("127.0.0.1", freePort(), "connectWait=11m"))
                    .build())
        .hasMessageContaining("connectWait")
        .hasMessageContaining("10m");
  }

  /** A port nothing listens on (free a moment ago). */
  protected static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
