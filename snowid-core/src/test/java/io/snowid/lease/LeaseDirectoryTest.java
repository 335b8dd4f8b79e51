package io.snowid.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipal;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9 item 7: the default directory {@code <tmpdir>/snowid-leases} is a predictable name in a
 * world-writable folder; another user could create it (or a symbolic link to a folder of theirs)
 * first and then delete or replace the lease files. Such directories are refused.
 */
class LeaseDirectoryTest {
  @TempDir Path tmp;

  private static void chmod(String mode, Path p) throws IOException, InterruptedException {
    Process chmod = new ProcessBuilder("chmod", mode, p.toString()).inheritIO().start();
    assertThat(chmod.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(chmod.exitValue()).isZero();
  }

  /** Gives a path to the user {@code nobody}; only root can, so the test needs root. */
  private static void giveToAnotherUser(Path p) throws IOException {
    assumeThat(LeaseDirectory.CurrentUser.uid()).as("runs as root (CI does)").isZero();
    UserPrincipal nobody =
        p.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
    Files.getFileAttributeView(p, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
        .setOwner(nobody);
  }

  @Test
  void open_directoryOwnedByAnotherUser_refusedNamingThePathAndTheFix() throws Exception {
    Path planted = Files.createDirectory(tmp.resolve("snowid-leases"));
    giveToAnotherUser(planted);

    assertThatThrownBy(() -> LeaseCoordinators.open("file:" + planted))
        .isInstanceOf(LeaseDirectoryException.class)
        .hasMessageContaining(planted.toString())
        .hasMessageContaining("owned by uid")
        .hasMessageContaining("--node file:DIR");
  }

  @Test
  void open_symbolicLinkPlantedByAnotherUser_refused() throws Exception {
    Path theirs = Files.createDirectory(tmp.resolve("theirs"));
    Path link = Files.createSymbolicLink(tmp.resolve("snowid-leases"), theirs);
    giveToAnotherUser(link);

    assertThatThrownBy(() -> LeaseCoordinators.open("file:" + link))
        .isInstanceOf(LeaseDirectoryException.class)
        .hasMessageContaining("symbolic link");
  }

  @Test
  void open_directoryWritableByEveryoneWithoutStickyBit_refused() throws Exception {
    Path open = Files.createDirectory(tmp.resolve("open"));
    chmod("0777", open);

    assertThatThrownBy(() -> LeaseCoordinators.open("file:" + open))
        .isInstanceOf(LeaseDirectoryException.class)
        .hasMessageContaining("writable by every user (mode 0777)")
        .hasMessageContaining("chmod o-w " + open);
  }

  @Test
  void open_folderAboveWritableByEveryone_refused() throws Exception {
    Path parent = Files.createDirectory(tmp.resolve("parent"));
    Path leases = Files.createDirectory(parent.resolve("leases"));
    chmod("0777", parent);

    assertThatThrownBy(() -> LeaseCoordinators.open("file:" + leases))
        .isInstanceOf(LeaseDirectoryException.class)
        .hasMessageContaining("the folder above it " + parent);
  }

  @Test
  void open_stickyFolderWritableByEveryone_accepted() throws Exception {
    Path shared = Files.createDirectory(tmp.resolve("shared"));
    chmod("1777", shared);

    try (LeaseCoordinator c = LeaseCoordinators.open("file:" + shared.resolve("leases"))) {
      assertThat(c.describe()).isEqualTo("file:" + shared.resolve("leases").toRealPath());
    }
  }

  @Test
  void open_ownSymbolicLink_followed() throws Exception {
    Path real = Files.createDirectory(tmp.resolve("real"));
    Path link = Files.createSymbolicLink(tmp.resolve("link"), real);

    try (LeaseCoordinator c = LeaseCoordinators.open("file:" + link)) {
      assertThat(c.describe()).isEqualTo("file:" + real.toRealPath());
    }
  }

  @Test
  void open_missingDirectory_createdNotWritableByOthers() throws Exception {
    Path fresh = tmp.resolve("a").resolve("b");
    try (LeaseCoordinator c = LeaseCoordinators.open("file:" + fresh)) {
      int mode = (Integer) Files.getAttribute(fresh, "unix:mode");
      assertThat(mode & 0022).isZero();
    }
  }

  @Test
  void acquire_namespaceFolderIsAPlantedSymbolicLink_refused() throws Exception {
    Path leases = Files.createDirectory(tmp.resolve("leases"));
    Path elsewhere = Files.createDirectory(tmp.resolve("elsewhere"));
    Files.createSymbolicLink(leases.resolve("ns"), elsewhere);

    try (LeaseCoordinator c = LeaseCoordinators.open("file:" + leases)) {
      assertThatThrownBy(
              () ->
                  c.acquire(
                      new AcquireRequest(
                          "ns", 1, "a", new LeaseTerms(java.time.Duration.ofSeconds(1), 0, 0))))
          .isInstanceOf(LeaseDirectoryException.class)
          .hasMessageContaining("symbolic link");
    }
  }

  @Test
  void acquire_leaseFileIsASymbolicLink_skipsThatId() throws Exception {
    Path leases = Files.createDirectory(tmp.resolve("leases"));
    Path ns = Files.createDirectory(leases.resolve("ns"));
    Path victim = Files.writeString(tmp.resolve("victim"), "do not touch\n");
    Files.createSymbolicLink(ns.resolve("0.lease"), victim);

    try (LeaseCoordinator c = LeaseCoordinators.open("file:" + leases)) {
      Lease l =
          c.acquire(
              new AcquireRequest(
                  "ns", 2, "a", new LeaseTerms(java.time.Duration.ofSeconds(1), 0, 0)));
      assertThat(l.nodeId()).isEqualTo(1);
    }
    assertThat(Files.readString(victim)).isEqualTo("do not touch\n");
  }
}
