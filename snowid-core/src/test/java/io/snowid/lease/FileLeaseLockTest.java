package io.snowid.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.node.NodeIdUnavailableException;
import io.snowid.testkit.ChildJvm;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file: coordinator's locks are POSIX record locks, owned by the process: closing any
 * descriptor of a lease file drops them. Whatever other coordinators of the same JVM do with a held
 * id, another process must still find it held.
 */
@Tag("integration")
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
    Process p =
        ChildJvm.of(
                FileLeaseProbeMain.class, List.of(), dir.toString(), namespace, Long.toString(size))
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
  }

  @Test
  void acquire_neighbourInThisJvmTriedTheHeldId_anotherProcessStillFindsItHeld() throws Exception {
    holder.acquire(
        new AcquireRequest("ns", 1, "holder", new LeaseTerms(TTL, now(), now() + 1_000)));
    assertThatThrownBy(
            () ->
                neighbour.acquire(
                    new AcquireRequest(
                        "ns", 1, "neighbour", new LeaseTerms(TTL, now(), now() + 1_000))))
        .isInstanceOf(NodeIdUnavailableException.class);

    assertThat(probe("ns", 1)).isEqualTo("unavailable");
  }

  @Test
  void acquire_neighbourOfTheSameInstanceReadTheHeldFile_anotherProcessStillFindsItHeld()
      throws Exception {
    Lease first =
        holder.acquire(
            new AcquireRequest("ns", 2, "svc", new LeaseTerms(TTL, now(), now() + 1_000)));
    Lease second =
        neighbour.acquire(
            new AcquireRequest("ns", 2, "svc", new LeaseTerms(TTL, now(), now() + 1_000)));
    assertThat(second.nodeId()).isNotEqualTo(first.nodeId());

    assertThat(probe("ns", 2)).isEqualTo("unavailable");
  }

  // The guard against re-opening a held file is JVM-wide, not static per class loader: a second
  // copy of snowid in the JVM (two web applications in one container) that opened and closed the
  // held file would drop the lock, and another process would take the id.
  @Test
  void acquire_anotherCopyOfSnowidInThisJvmTriesTheHeldId_anotherProcessStillFindsItHeld()
      throws Exception {
    holder.acquire(
        new AcquireRequest("ns", 1, "holder", new LeaseTerms(TTL, now(), now() + 1_000)));
    URL core = LeaseCoordinators.class.getProtectionDomain().getCodeSource().getLocation();
    try (URLClassLoader copy =
        new URLClassLoader(new URL[] {core}, ClassLoader.getPlatformClassLoader())) {
      Class<?> coordinators = copy.loadClass(LeaseCoordinators.class.getName());
      assertThat(coordinators).isNotSameAs(LeaseCoordinators.class);
      Object other = coordinators.getMethod("open", String.class).invoke(null, "file:" + dir);
      Class<?> terms = copy.loadClass(LeaseTerms.class.getName());
      Class<?> request = copy.loadClass(AcquireRequest.class.getName());
      Object asked =
          request
              .getConstructor(String.class, long.class, String.class, terms)
              .newInstance(
                  "ns",
                  1L,
                  "copy",
                  terms
                      .getConstructor(Duration.class, long.class, long.class)
                      .newInstance(TTL, now(), now()));
      Method acquire =
          copy.loadClass(LeaseCoordinator.class.getName()).getMethod("acquire", request);
      assertThatThrownBy(() -> acquire.invoke(other, asked))
          .isInstanceOf(InvocationTargetException.class)
          .cause()
          .hasMessageContaining("are held");
    }

    assertThat(probe("ns", 1)).isEqualTo("unavailable");
  }

  // Application code that reads a held lease file once (Files.readString) drops the lock, which no
  // API reports; the record still names a live holder, so others leave it.
  @Test
  void acquire_holderProcessReadItsLeaseFileOnce_anotherProcessLeavesTheIdAlone() throws Exception {
    Lease l =
        holder.acquire(
            new AcquireRequest("ns", 1, "holder", new LeaseTerms(TTL, now(), now() + 1_000)));
    assertThat(Files.readString(dir.resolve("ns").resolve(l.nodeId() + ".lease")))
        .contains("token=" + l.token());

    assertThat(probe("ns", 1)).isEqualTo("unavailable");
  }

  // The same directory through two paths (bind mounts; here a hard link to the same file) is one
  // key of the guard (device and inode), so the second path does not open and close the held file.
  @Test
  void acquire_heldFileReachedThroughAnotherPath_isNotOpenedAgain() throws Exception {
    Lease l =
        holder.acquire(
            new AcquireRequest("ns", 1, "holder", new LeaseTerms(TTL, now(), now() + 1_000)));
    Path otherDir = Files.createDirectories(dir.resolveSibling(dir.getFileName() + "-alias"));
    try {
      Files.createDirectories(otherDir.resolve("ns"));
      Files.createLink(
          otherDir.resolve("ns").resolve("0.lease"),
          dir.resolve("ns").resolve(l.nodeId() + ".lease"));
      try (LeaseCoordinator alias = LeaseCoordinators.open("file:" + otherDir)) {
        assertThatThrownBy(
                () ->
                    alias.acquire(
                        new AcquireRequest("ns", 1, "alias", new LeaseTerms(TTL, now(), now()))))
            .isInstanceOf(NodeIdUnavailableException.class);
      }

      assertThat(probe("ns", 1)).isEqualTo("unavailable");
    } finally {
      Files.deleteIfExists(otherDir.resolve("ns").resolve("0.lease"));
      Files.deleteIfExists(otherDir.resolve("ns"));
      try (var left = Files.newDirectoryStream(otherDir, "ns@*")) {
        for (Path f : left) {
          Files.delete(f); // the namespace's records of this user
        }
      }
      Files.deleteIfExists(otherDir);
    }
  }
}
