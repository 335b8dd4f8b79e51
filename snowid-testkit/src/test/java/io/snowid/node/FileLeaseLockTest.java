package io.snowid.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file: coordinator's locks are POSIX record locks, owned by the process: closing any
 * descriptor of a lease file drops them. Whatever other coordinators of the same JVM do with a held
 * id, another process must still find it held.
 */
class FileLeaseLockTest {
  private static final Duration TTL = Duration.ofSeconds(3);

  @TempDir Path dir;
  private LeaseCoordinator holder;
  private LeaseCoordinator neighbour;

  @BeforeEach
  void open() {
    holder = LeaseCoordinators.open("file:" + dir);
    neighbour = LeaseCoordinators.open("file:" + dir);
  }

  @AfterEach
  void closeAll() {
    holder.close();
    neighbour.close();
  }

  private static long now() {
    return System.currentTimeMillis();
  }

  /** What another process gets when it tries to lease an id of the namespace. */
  private String probe(String namespace, long size) throws IOException, InterruptedException {
    Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
    Process p =
        new ProcessBuilder(
                java.toString(),
                "-cp",
                System.getProperty("java.class.path"),
                FileLeaseProbeMain.class.getName(),
                dir.toString(),
                namespace,
                Long.toString(size))
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
  }

  @Test
  void acquire_neighbourInThisJvmTriedTheHeldId_anotherProcessStillFindsItHeld() throws Exception {
    holder.acquire("ns", 1, "holder", TTL, now(), now() + 1_000);
    assertThatThrownBy(() -> neighbour.acquire("ns", 1, "neighbour", TTL, now(), now() + 1_000))
        .isInstanceOf(NodeIdUnavailableException.class);

    assertThat(probe("ns", 1)).isEqualTo("unavailable");
  }

  @Test
  void acquire_neighbourOfTheSameInstanceReadTheHeldFile_anotherProcessStillFindsItHeld()
      throws Exception {
    Lease first = holder.acquire("ns", 2, "svc", TTL, now(), now() + 1_000);
    Lease second = neighbour.acquire("ns", 2, "svc", TTL, now(), now() + 1_000);
    assertThat(second.nodeId()).isNotEqualTo(first.nodeId());

    assertThat(probe("ns", 2)).isEqualTo("unavailable");
  }
}
