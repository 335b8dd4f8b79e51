package io.snowid.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11, item 4: one lease directory per host, used by several OS users. The owners here are
 * made with chown (the test runs as root, as CI does); SeveralUsersTest runs a real second user.
 */
class SharedLeaseDirectoryTest {
  @TempDir Path tmp;

  @BeforeEach
  void root() {
    assumeThat(LeaseDirectory.CurrentUser.uid()).as("runs as root (CI does)").isZero();
  }

  private static int mode(Path p) throws IOException {
    return (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 07777;
  }

  private static void chmod(Path p, int mode) throws IOException {
    Files.setAttribute(p, "unix:mode", mode, LinkOption.NOFOLLOW_LINKS);
  }

  private static void giveTo(Path p, String user) throws IOException {
    UserPrincipal u = p.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(user);
    Files.getFileAttributeView(p, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
        .setOwner(u);
  }

  private static void giveToGroup(Path p, String group) throws IOException {
    GroupPrincipal g =
        p.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByGroupName(group);
    Files.getFileAttributeView(p, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
        .setGroup(g);
  }

  /** A folder like /tmp: sticky and writable by everyone. */
  private Path sharedTmp() throws IOException {
    Path t = Files.createDirectory(tmp.resolve("t"));
    chmod(t, 01777);
    return t;
  }

  private static Lease acquire(LeaseCoordinator c, String namespace, long size) {
    return c.acquire(
        new AcquireRequest(
            namespace,
            size,
            "i",
            new LeaseTerms(Duration.ofSeconds(2), System.currentTimeMillis(), 0)));
  }

  @Test
  void open_missingDirectoryInAFolderLikeTmp_createdSharedByEveryUser() throws Exception {
    Path leases = sharedTmp().resolve("snowid-leases");
    try (LeaseCoordinator c = LeaseCoordinators.open("file:" + leases)) {
      assertThat(mode(leases)).isEqualTo(01777);
      acquire(c, "ns", 4);
      assertThat(mode(leases.resolve("ns"))).isEqualTo(01777);
    }
  }

  @Test
  void open_missingDirectoryElsewhere_createdForThisUserOnly() throws Exception {
    Path leases = tmp.resolve("private").resolve("leases");
    try (LeaseCoordinator c = LeaseCoordinators.open("file:" + leases)) {
      assertThat(mode(leases)).isEqualTo(0755);
      acquire(c, "ns", 4);
      assertThat(mode(leases.resolve("ns"))).isEqualTo(0755);
    }
  }

  @Test
  void open_sharedDirectoryAnotherUserCreated_acceptedWithItsSharedNamespace() throws Exception {
    Path leases = Files.createDirectory(sharedTmp().resolve("snowid-leases"));
    chmod(leases, 01777);
    giveTo(leases, "nobody");
    Path ns = Files.createDirectory(leases.resolve("ns"));
    chmod(ns, 01777);
    giveTo(ns, "nobody");

    try (LeaseCoordinator c = LeaseCoordinators.open("file:" + leases)) {
      assertThat(acquire(c, "ns", 4).nodeId()).isZero();
    }
  }

  /** A lease file of another user says nothing this user trusts: that id is that user's. */
  @Test
  void acquire_leaseFileOfAnotherUser_isLeftToThatUser() throws Exception {
    Path leases = Files.createDirectory(sharedTmp().resolve("snowid-leases"));
    chmod(leases, 01777);
    Path ns = Files.createDirectory(leases.resolve("ns"));
    chmod(ns, 01777);
    Path theirs = Files.createFile(ns.resolve("0.lease"));
    chmod(theirs, 0666); // even writable by this user
    giveTo(theirs, "nobody");

    try (LeaseCoordinator c = LeaseCoordinators.open("file:" + leases)) {
      assertThat(acquire(c, "ns", 4).nodeId()).isEqualTo(1);
    }
    assertThat(Files.size(theirs)).isZero(); // never written
  }

  /**
   * Each user keeps the namespace's longest lease time in a file of its own; a newcomer waits the
   * longest any user recorded, since that user's holder may still issue for that long.
   */
  @Test
  void acquire_anotherUsersLongerLeaseTime_isWaitedOut() throws Exception {
    Path leases = Files.createDirectory(sharedTmp().resolve("snowid-leases"));
    chmod(leases, 01777);
    Path ns = Files.createDirectory(leases.resolve("ns"));
    chmod(ns, 01777);
    Path theirs = ns.resolve("longest-ttl.65534");
    Files.writeString(theirs, String.format("%-20d%n", 60_000), StandardCharsets.UTF_8);
    giveTo(theirs, "nobody");

    try (LeaseCoordinator c = LeaseCoordinators.open("file:" + leases)) {
      long before = System.currentTimeMillis();
      Lease l = acquire(c, "ns", 4);
      assertThat(l.highWaterMillis()).isGreaterThanOrEqualTo(before + 60_000);
    }
  }

  /** A longest-ttl another user created holds that user's record; this user keeps its own. */
  @Test
  void acquire_longestTtlOfAnotherUser_leftAloneAndOwnRecordKept() throws Exception {
    Path leases = Files.createDirectory(sharedTmp().resolve("snowid-leases"));
    chmod(leases, 01777);
    Path ns = Files.createDirectory(leases.resolve("ns"));
    chmod(ns, 01777);
    Path theirs = ns.resolve("longest-ttl");
    Files.writeString(theirs, String.format("%-20d%n", 500), StandardCharsets.UTF_8);
    chmod(theirs, 0666);
    giveTo(theirs, "nobody");

    try (LeaseCoordinator c = LeaseCoordinators.open("file:" + leases)) {
      acquire(c, "ns", 4);
    }
    assertThat(Files.readString(theirs).trim()).isEqualTo("500");
    assertThat(Files.readString(ns.resolve("longest-ttl.0")).trim()).isEqualTo("2000");
  }

  @Test
  void acquire_groupWritableDirectory_namespaceSharedByTheGroup() throws Exception {
    Path leases = Files.createDirectory(tmp.resolve("leases"));
    giveToGroup(leases, "nogroup");
    chmod(leases, 02775);
    Path theirs = Files.createDirectory(leases.resolve("theirs"));
    giveTo(theirs, "nobody");
    giveToGroup(theirs, "nogroup");
    chmod(theirs, 02775);

    try (LeaseCoordinator c = LeaseCoordinators.open("file:" + leases)) {
      acquire(c, "mine", 4);
      assertThat(mode(leases.resolve("mine"))).isEqualTo(02775);
      assertThat(Files.getAttribute(leases.resolve("mine"), "unix:gid"))
          .isEqualTo(Files.getAttribute(leases, "unix:gid"));
      assertThat(acquire(c, "theirs", 4).nodeId()).isZero(); // another member's: accepted
    }
  }
}
