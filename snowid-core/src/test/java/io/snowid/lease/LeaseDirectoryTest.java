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
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default directory {@code <tmpdir>/snowid-leases} is a predictable name in a world-writable
 * folder; another user could create it (or a symbolic link to a folder of theirs) first and then
 * delete or replace the lease files. Such directories are refused, and so is a path that leads
 * through a folder or symbolic link of another user anywhere along it, with one sentence naming the
 * directory, the component, why and the fix.
 */
class LeaseDirectoryTest {
  private static final String NODE = "--node file:DIR (snowid.node / SNOWID_NODE)";
  private static final int NOBODY = 65534;

  @TempDir Path tmp;

  private static void run(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).inheritIO().start();
    assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(String.join(" ", command)).isZero();
  }

  private static void chmod(String mode, Path p) throws IOException, InterruptedException {
    run("chmod", mode, p.toString());
  }

  /** Gives a path to the user {@code nobody}; only root can, so the test needs root. */
  private static void giveToAnotherUser(Path p) throws IOException {
    assumeThat(LeaseDirectory.CurrentUser.uid()).as("runs as root (CI does)").isZero();
    UserPrincipal nobody =
        p.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
    Files.getFileAttributeView(p, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
        .setOwner(nobody);
    assertThat(Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS)).isEqualTo(NOBODY);
  }

  private static void assumeRoot() {
    assumeThat(LeaseDirectory.CurrentUser.uid()).as("runs as root (CI does)").isZero();
  }

  /** A world-writable sticky folder like /tmp, owned by root. */
  private Path sharedTmp() throws IOException, InterruptedException {
    Path t = Files.createDirectory(tmp.resolve("t"));
    chmod("1777", t);
    return t;
  }

  @Test
  void open_directoryOwnedByAnotherUser_refusedNamingThePathAndTheFix() throws Exception {
    Path planted = Files.createDirectory(tmp.resolve("snowid-leases"));
    giveToAnotherUser(planted);

    assertThatThrownBy(() -> LeaseCoordinators.open("file:" + planted))
        .isInstanceOf(LeaseDirectoryException.class)
        .hasMessage(
            "lease directory "
                + planted
                + " refused: it is owned by uid 65534, not by this user (uid 0) or root, who could"
                + " delete or replace its lease files, and it is not shared by the users of this"
                + " host (mode 0755); to share it among them, as root: chown root "
                + planted
                + " && chmod 1777 "
                + planted
                + " "
                + planted
                + "/*/; else remove it if you did not create it, or give a"
                + " directory of your own with "
                + NODE);
  }

  @Test
  void open_symbolicLinkPlantedByAnotherUser_refused() throws Exception {
    Path theirs = Files.createDirectory(tmp.resolve("theirs"));
    Path link = Files.createSymbolicLink(tmp.resolve("snowid-leases"), theirs);
    giveToAnotherUser(link);

    assertThatThrownBy(() -> LeaseCoordinators.open("file:" + link))
        .isInstanceOf(LeaseDirectoryException.class)
        .hasMessage(
            "lease directory "
                + link
                + " refused: it is a symbolic link owned by uid 65534, not by this user (uid 0) or"
                + " root, who could point it elsewhere; remove "
                + link
                + " if you did not create it, or give a directory of your own with "
                + NODE);
  }

  /** Another user's link in the middle of the path, re-pointable at any time. */
  @Test
  void open_symbolicLinkInTheMiddleOwnedByAnotherUser_refusedAndNothingCreated() throws Exception {
    Path t = sharedTmp();
    Path rootDir = Files.createDirectory(tmp.resolve("root-owned"));
    Path app = Files.createSymbolicLink(t.resolve("app"), rootDir);
    giveToAnotherUser(app);
    Path leases = app.resolve("leases");

    assertThatThrownBy(() -> LeaseCoordinators.open("file:" + leases))
        .isInstanceOf(LeaseDirectoryException.class)
        .hasMessage(
            "lease directory "
                + leases
                + " refused: the symbolic link "
                + app
                + " on its path is owned by uid 65534, not by this user (uid 0) or root, who could"
                + " point it elsewhere; choose a lease directory whose folders and symbolic links"
                + " all belong to this user or root, with "
                + NODE)
        .isInstanceOfSatisfying(
            LeaseDirectoryException.class,
            e -> {
              assertThat(e.directory()).isEqualTo(leases);
              assertThat(e.path()).isEqualTo(app);
            });
    assertThat(rootDir.resolve("leases")).doesNotExist();
  }

  /** A link of our own is followed, but so are the checks, along its target's path. */
  @Test
  void open_ownLinkLeadingThroughAnotherUsersLink_refused() throws Exception {
    Path t = sharedTmp();
    Path rootDir = Files.createDirectory(tmp.resolve("root-owned"));
    Files.createDirectory(rootDir.resolve("sub"));
    Path app = Files.createSymbolicLink(t.resolve("app"), rootDir);
    giveToAnotherUser(app);
    Path mine = Files.createSymbolicLink(tmp.resolve("mine"), app.resolve("sub"));

    assertThatThrownBy(() -> LeaseCoordinators.open("file:" + mine.resolve("leases")))
        .isInstanceOf(LeaseDirectoryException.class)
        .hasMessageStartingWith(
            "lease directory "
                + mine.resolve("leases")
                + " refused: the symbolic link "
                + app
                + " on its path is owned by uid 65534");
    assertThat(rootDir.resolve("sub").resolve("leases")).doesNotExist();
  }

  @Test
  void open_symbolicLinkInTheMiddleOwnedByRoot_followed() throws Exception {
    assumeRoot();
    Path t = sharedTmp();
    Path rootDir = Files.createDirectory(tmp.resolve("root-owned"));
    Path app = Files.createSymbolicLink(t.resolve("app"), rootDir);

    try (LeaseCoordinator c = LeaseCoordinators.open("file:" + app.resolve("leases"))) {
      assertThat(c.describe()).isEqualTo("file:" + rootDir.toRealPath().resolve("leases"));
    }
  }

  /** {@code createIfAbsent} creates no folder before the checks pass. */
  @Test
  void open_folderAboveOwnedByAnotherUser_refusedAndNothingCreated() throws Exception {
    Path eve = Files.createDirectories(tmp.resolve("x").resolve("evedir"));
    giveToAnotherUser(eve);
    Path leases = eve.resolve("a").resolve("b").resolve("leases");

    assertThatThrownBy(() -> LeaseCoordinators.open("file:" + leases))
        .isInstanceOf(LeaseDirectoryException.class)
        .hasMessage(
            "lease directory "
                + leases
                + " refused: the folder "
                + eve
                + " on its path is owned by uid 65534, not by this user (uid 0) or root, who could"
                + " replace everything below it; choose a lease directory whose folders all belong"
                + " to this user or root, with "
                + NODE);
    assertThat(eve.resolve("a")).doesNotExist();
  }

  @Test
  void open_directoryWritableByEveryoneWithoutStickyBit_refused() throws Exception {
    Path open = Files.createDirectory(tmp.resolve("open"));
    chmod("0777", open);

    assertThatThrownBy(() -> LeaseCoordinators.open("file:" + open))
        .isInstanceOf(LeaseDirectoryException.class)
        .hasMessage(
            "lease directory "
                + open
                + " refused: it is writable by every user (mode 0777), who could delete or replace"
                + " its lease files; chmod +t "
                + open
                + " to share it among the users of this host, or chmod o-w "
                + open);
  }

  @Test
  void open_folderAboveWritableByEveryone_refused() throws Exception {
    Path parent = Files.createDirectory(tmp.resolve("parent"));
    Path leases = Files.createDirectory(parent.resolve("leases"));
    chmod("0777", parent);

    assertThatThrownBy(() -> LeaseCoordinators.open("file:" + leases))
        .isInstanceOf(LeaseDirectoryException.class)
        .hasMessage(
            "lease directory "
                + leases
                + " refused: the folder "
                + parent
                + " on its path is writable by every user (mode 0777) without the sticky bit, so"
                + " anyone could replace everything below it; chmod o-w "
                + parent
                + " (or chmod +t "
                + parent
                + " for a shared folder like /tmp), or choose a lease directory whose folders all"
                + " belong to this user or root, with "
                + NODE);
  }

  /** A planted file: the refusal names its owner and what to do. */
  @Test
  void open_regularFilePlantedByAnotherUser_refusedNamingItsOwner() throws Exception {
    Path planted = Files.writeString(tmp.resolve("snowid-leases"), "");
    giveToAnotherUser(planted);

    assertThatThrownBy(() -> LeaseCoordinators.open("file:" + planted))
        .isInstanceOf(LeaseDirectoryException.class)
        .hasMessage(
            "lease directory "
                + planted
                + " refused: it is a regular file, not a directory, owned by uid 65534 (this user"
                + " is uid 0); remove "
                + planted
                + " if you did not create it, or give another directory with "
                + NODE);
  }

  @Test
  void open_fifoPlantedByAnotherUser_refusedNamingItsOwner() throws Exception {
    Path planted = tmp.resolve("snowid-leases");
    run("mkfifo", planted.toString());
    giveToAnotherUser(planted);

    assertThatThrownBy(() -> LeaseCoordinators.open("file:" + planted))
        .isInstanceOf(LeaseDirectoryException.class)
        .hasMessage(
            "lease directory "
                + planted
                + " refused: it is a fifo, not a directory, owned by uid 65534 (this user is uid"
                + " 0); remove "
                + planted
                + " if you did not create it, or give another directory with "
                + NODE);
  }

  @Test
  void open_ownFileOnThePath_refusedWithoutAdvisingToRemoveIt() throws Exception {
    assumeRoot();
    Path file = Files.writeString(tmp.resolve("file"), "");
    Path leases = file.resolve("leases");

    assertThatThrownBy(() -> LeaseCoordinators.open("file:" + leases))
        .isInstanceOf(LeaseDirectoryException.class)
        .hasMessage(
            "lease directory "
                + leases
                + " refused: "
                + file
                + " on its path is a regular file, not a directory, owned by this user (uid 0);"
                + " give another directory with "
                + NODE);
  }

  @Test
  void open_loopOfSymbolicLinks_refused() throws Exception {
    Path loop = Files.createSymbolicLink(tmp.resolve("loop"), tmp.resolve("loop"));
    Path leases = loop.resolve("leases");

    assertThatThrownBy(() -> LeaseCoordinators.open("file:" + leases))
        .isInstanceOf(LeaseDirectoryException.class)
        .hasMessage(
            "lease directory "
                + leases
                + " refused: its path leads through more than 40 symbolic links; give a path"
                + " without a loop of symbolic links, with "
                + NODE);
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

  /** {@code ..} after a symbolic link goes to the link target's parent, as the kernel's does. */
  @Test
  void open_dotDotAfterASymbolicLink_resolvedLikeTheKernel() throws Exception {
    Path sub = Files.createDirectories(tmp.resolve("real").resolve("sub"));
    Path link = Files.createSymbolicLink(tmp.resolve("link"), sub);

    try (LeaseCoordinator c = LeaseCoordinators.open("file:" + link + "/../leases")) {
      assertThat(c.describe()).isEqualTo("file:" + tmp.toRealPath().resolve("real/leases"));
    }
  }

  @Test
  void open_missingDirectory_createdNotWritableByOthers() throws Exception {
    Path fresh = tmp.resolve("a").resolve("b");
    try (LeaseCoordinator c = LeaseCoordinators.open("file:" + fresh)) {
      for (Path p : new Path[] {fresh.getParent(), fresh}) {
        int mode = (Integer) Files.getAttribute(p, "unix:mode");
        assertThat(mode & 0022).as(p.toString()).isZero();
      }
    }
  }

  @Test
  void acquire_namespaceFolderIsAPlantedSymbolicLink_refused() throws Exception {
    Path leases = Files.createDirectory(tmp.resolve("leases"));
    Path elsewhere = Files.createDirectory(tmp.resolve("elsewhere"));
    Path ns = Files.createSymbolicLink(leases.resolve("ns"), elsewhere);
    giveToAnotherUser(ns);

    try (LeaseCoordinator c = LeaseCoordinators.open("file:" + leases)) {
      Path real = leases.toRealPath();
      assertThatThrownBy(
              () ->
                  c.acquire(
                      new AcquireRequest(
                          "ns", 1, "a", new LeaseTerms(Duration.ofSeconds(1), 0, 0))))
          .isInstanceOf(LeaseDirectoryException.class)
          .hasMessage(
              "lease directory "
                  + real
                  + " refused: its namespace folder "
                  + real.resolve("ns")
                  + " is a symbolic link, not a directory, owned by uid 65534 (this user is uid"
                  + " 0); remove "
                  + real.resolve("ns")
                  + " (snowid creates its namespace folders itself)");
    }
  }

  @Test
  void acquire_namespaceFolderOwnedByAnotherUser_refused() throws Exception {
    Path leases = Files.createDirectory(tmp.resolve("leases"));
    Path ns = Files.createDirectory(leases.resolve("ns"));
    giveToAnotherUser(ns);

    try (LeaseCoordinator c = LeaseCoordinators.open("file:" + leases)) {
      Path real = leases.toRealPath();
      assertThatThrownBy(
              () ->
                  c.acquire(
                      new AcquireRequest(
                          "ns", 1, "a", new LeaseTerms(Duration.ofSeconds(1), 0, 0))))
          .isInstanceOf(LeaseDirectoryException.class)
          .hasMessage(
              "lease directory "
                  + real
                  + " refused: its namespace folder "
                  + real.resolve("ns")
                  + " is owned by uid 65534, not by this user (uid 0) or root, who could delete or"
                  + " replace its lease files, and it is not shared by the users of this host (mode"
                  + " 0755); to share it among them, chmod 1777 "
                  + real.resolve("ns")
                  + " as uid 65534 or root; else remove it if you did not create it");
    }
  }

  @Test
  void acquire_namespaceThatLeavesTheDirectory_refused() throws Exception {
    Path leases = Files.createDirectory(tmp.resolve("leases"));

    try (LeaseCoordinator c = LeaseCoordinators.open("file:" + leases)) {
      Path real = leases.toRealPath();
      for (String ns : new String[] {"..", ".", "a/b"}) {
        assertThatThrownBy(
                () ->
                    c.acquire(
                        new AcquireRequest(
                            ns, 1, "a", new LeaseTerms(Duration.ofSeconds(1), 0, 0))))
            .isInstanceOf(LeaseDirectoryException.class)
            .hasMessage(
                "lease directory "
                    + real
                    + " refused: its namespace folder name \""
                    + ns
                    + "\" is not the name of a folder inside it; give a namespace of A-Z a-z 0-9 . _"
                    + " : - other than . and ..");
      }
    }
    try (var files = Files.list(tmp)) {
      assertThat(files).containsExactly(leases);
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
          c.acquire(new AcquireRequest("ns", 2, "a", new LeaseTerms(Duration.ofSeconds(1), 0, 0)));
      assertThat(l.nodeId()).isEqualTo(1);
    }
    assertThat(Files.readString(victim)).isEqualTo("do not touch\n");
  }
}
