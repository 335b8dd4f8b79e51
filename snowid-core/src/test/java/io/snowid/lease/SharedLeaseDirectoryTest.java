package io.snowid.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.snowid.node.NodeIdUnavailableException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One lease directory per host, used by several OS users. The owners here are made with chown (the
 * test runs as root, as CI does); SeveralUsersTest runs a real second user.
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

  /** Another user's namespace marks file in {@code leases}, with a high-water mark of its own. */
  private static Path plantNamespaceMark(Path leases, String user, int uid, long highWater)
      throws IOException {
    Path marks = leases.resolve("ns@" + uid);
    Files.writeString(
        marks,
        "ttl=2000\nhigh-water="
            + highWater
            + "\nmax-ttl=30000\nmax-skew=5000\nwritten="
            + System.currentTimeMillis()
            + "\nlost-until="
            + Long.MIN_VALUE
            + "\n");
    giveTo(marks, user);
    return marks;
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

  /**
   * A lease directory another user owns: its owner could delete the records that bound this user's
   * newcomer, so it is refused, one sentence naming the path and the fix.
   */
  @Test
  void open_sharedDirectoryAnotherUserOwns_refusedNamingChownRoot() throws Exception {
    Path leases = Files.createDirectory(sharedTmp().resolve("snowid-leases"));
    chmod(leases, 01777);
    giveTo(leases, "nobody");

    assertThatThrownBy(() -> LeaseCoordinators.open("file:" + leases))
        .isInstanceOf(LeaseDirectoryException.class)
        .hasMessage(
            "lease directory "
                + leases
                + " refused: it is shared by the users of this host but owned by uid 65534, not"
                + " by root or this user (uid 0), who could delete the records that keep other"
                + " users' processes from sharing a node id; as root, chown root "
                + leases
                + " (or create it as root beforehand: install -d -m 1777 "
                + leases
                + "); else give a directory of your own with --node file:DIR (snowid.node /"
                + " SNOWID_NODE)");
  }

  /** A namespace folder another user created first is still used: the records are elsewhere. */
  @Test
  void acquire_namespaceFolderAnotherUserCreated_accepted() throws Exception {
    Path leases = Files.createDirectory(sharedTmp().resolve("snowid-leases"));
    chmod(leases, 01777);
    Path ns = Files.createDirectory(leases.resolve("ns"));
    chmod(ns, 01777);
    giveTo(ns, "nobody");

    try (LeaseCoordinator c = LeaseCoordinators.open("file:" + leases)) {
      assertThat(acquire(c, "ns", 4).nodeId()).isZero();
    }
  }

  /** A group's namespace folder is sticky too. */
  @Test
  void acquire_groupWritableDirectory_namespaceFolderIsSetgidAndSticky() throws Exception {
    Path leases = Files.createDirectory(tmp.resolve("leases"));
    giveToGroup(leases, "nogroup");
    chmod(leases, 03775);

    try (LeaseCoordinator c = LeaseCoordinators.open("file:" + leases)) {
      acquire(c, "mine", 4);
    }
    assertThat(mode(leases.resolve("mine"))).isEqualTo(03775);
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
   * longest that any user's holders may still issue under.
   */
  @Test
  void acquire_anotherUsersLongerLeaseTime_isWaitedOut() throws Exception {
    Path leases = Files.createDirectory(sharedTmp().resolve("snowid-leases"));
    chmod(leases, 01777);
    Path theirs = leases.resolve("ns@65534");
    long before = System.currentTimeMillis();
    Files.writeString(
        theirs,
        "ttl=20000\nhigh-water=0\nmax-ttl=30000\nmax-skew=5000\nwritten="
            + before
            + "\nlost-until=0\n",
        StandardCharsets.UTF_8);
    giveTo(theirs, "nobody");

    try (LeaseCoordinator c = LeaseCoordinators.open("file:" + leases)) {
      Lease l = acquire(c, "ns", 4);
      assertThat(l.highWaterMillis()).isGreaterThanOrEqualTo(before + 20_000);
    }
    assertThat(Files.readString(theirs)).startsWith("ttl=20000\n"); // left to its owner
  }

  @Test
  void acquire_groupWritableDirectory_namespaceSharedByTheGroup() throws Exception {
    Path leases = Files.createDirectory(tmp.resolve("leases"));
    giveToGroup(leases, "nogroup");
    chmod(leases, 03775);
    Path theirs = Files.createDirectory(leases.resolve("theirs"));
    giveTo(theirs, "nobody");
    giveToGroup(theirs, "nogroup");
    chmod(theirs, 02775);

    try (LeaseCoordinator c = LeaseCoordinators.open("file:" + leases)) {
      acquire(c, "mine", 4);
      assertThat(mode(leases.resolve("mine"))).isEqualTo(03775);
      assertThat(Files.getAttribute(leases.resolve("mine"), "unix:gid"))
          .isEqualTo(Files.getAttribute(leases, "unix:gid"));
      assertThat(acquire(c, "theirs", 4).nodeId()).isZero(); // another member's: accepted
    }
  }

  private static Lease acquire(LeaseCoordinator c, String namespace, Duration ttl) {
    long now = System.currentTimeMillis();
    return c.acquire(
        new AcquireRequest(
            namespace, 4, "i", new LeaseTerms(ttl, now, now + ttl.toMillis() - 100)));
  }

  /**
   * The owner of a shared namespace folder deletes a holder's lease file. A newcomer with a short
   * lease time still waits the holder's, recorded in the lease directory where that owner cannot
   * delete it, and starts after the holder's high-water mark; the holder notices at its next
   * renewal and stops. The two share the lease directory only, not the place of host-wide claims
   * (two containers with a volume): on one host the holder's claim would keep the newcomer off its
   * id altogether.
   */
  @Test
  void acquire_namespaceFolderOwnerDeletedTheLeaseFile_newcomerWaitsHoldersLeaseTime()
      throws Exception {
    Path leases = Files.createDirectory(sharedTmp().resolve("snowid-leases"));
    chmod(leases, 01777);
    Path ns = leases.resolve("ns");
    try (LeaseCoordinator victim =
            FileLeaseCoordinator.open("file:" + leases, new HostClaims(tmp.resolve("claims-a")));
        LeaseCoordinator newcomer =
            FileLeaseCoordinator.open("file:" + leases, new HostClaims(tmp.resolve("claims-b")))) {
      Lease held = acquire(victim, "ns", Duration.ofSeconds(30));
      long promised = System.currentTimeMillis() + 30_000 - 100;
      try (var files = Files.newDirectoryStream(ns)) {
        for (Path f : files) {
          Files.delete(f); // as the folder's owner may: 0.lease
        }
      }

      Lease next = acquire(newcomer, "ns", Duration.ofSeconds(2));

      assertThat(next.nodeId()).isEqualTo(held.nodeId());
      assertThat(next.highWaterMillis()).isGreaterThanOrEqualTo(promised);
      long now = System.currentTimeMillis();
      assertThatThrownBy(
              () -> victim.renew(held, new LeaseTerms(Duration.ofSeconds(30), now, now + 29_900)))
          .isInstanceOf(LeaseTakenException.class);
    }
    assertThat(Files.readString(leases.resolve("ns@0"))).contains("ttl=30000\n");
  }

  /**
   * Another user's record far in the future refuses, naming that file, its owner and the fix
   * (rather than a node id "used up to" a time it never was).
   */
  @Test
  void acquire_anotherUsersHighWaterMarkInTheFuture_refusedNamingFileAndOwner() throws Exception {
    Path leases = Files.createDirectory(sharedTmp().resolve("snowid-leases"));
    chmod(leases, 01777);
    long future = System.currentTimeMillis() + Duration.ofDays(3650).toMillis();
    Path forged = plantNamespaceMark(leases, "nobody", 65534, future);

    try (LeaseCoordinator c = LeaseCoordinators.open("file:" + leases)) {
      assertThatThrownBy(() -> acquire(c, "ns", 4))
          .isInstanceOf(NodeIdUnavailableException.class)
          .hasMessageContaining(
              forged
                  + " (owned by uid 65534) records a high-water mark of "
                  + java.time.Instant.ofEpochMilli(future))
          .hasMessageEndingWith(
              "if no process of uid 65534 runs snowid with its clock ahead, remove "
                  + forged
                  + " as root or as its owner");
    }
  }

  /**
   * A refusal after the id's file was created and locked (here for another user's forged mark)
   * closes the file and drops its claim. A file left open and claimed would keep the id taken in
   * this JVM, and once the leaked channel is collected its inode may be reused by another lease
   * file, which would then count as held in this JVM ("all 4 node ids ... are held").
   */
  @Test
  void acquire_refusedAfterTheFileWasLocked_idFreeAgainOnceTheCauseIsGone() throws Exception {
    Path leases = Files.createDirectory(sharedTmp().resolve("snowid-leases"));
    chmod(leases, 01777);
    long future = System.currentTimeMillis() + Duration.ofDays(3650).toMillis();
    Path forged = plantNamespaceMark(leases, "nobody", 65534, future);

    try (LeaseCoordinator c = LeaseCoordinators.open("file:" + leases)) {
      assertThatThrownBy(() -> acquire(c, "ns", 4)).isInstanceOf(NodeIdUnavailableException.class);
      Files.delete(forged);
      assertThat(acquire(c, "ns", 4).nodeId()).isZero();
    }
  }

  /**
   * Another user planted this user's lock file of the namespace's marks and holds a lock on it from
   * a real process: the acquisition fails at once naming the file and its owner, and waits for
   * nothing.
   */
  @Tag("integration")
  @Test
  void acquire_plantedMarksLockLockedByAnotherProcess_refusedAtOnceNamingIt() throws Exception {
    Path leases = Files.createDirectory(sharedTmp().resolve("snowid-leases"));
    chmod(leases, 01777);
    Path planted = Files.createFile(leases.resolve("ns@0.lock"));
    chmod(planted, 0666);
    giveTo(planted, "nobody");
    Process locker =
        new ProcessBuilder(
                "python3",
                "-c",
                "import fcntl,sys,time; f=open(sys.argv[1],'r+'); fcntl.lockf(f, fcntl.LOCK_EX);"
                    + " print('locked', flush=True); time.sleep(120)",
                planted.toString())
            .redirectErrorStream(true)
            .start();
    try {
      assertThat(new String(locker.getInputStream().readNBytes(6), StandardCharsets.UTF_8))
          .isEqualTo("locked");
      try (LeaseCoordinator c = LeaseCoordinators.open("file:" + leases)) {
        assertThatThrownBy(() -> acquire(c, "ns", 4))
            .isInstanceOf(NodeIdUnavailableException.class)
            .hasMessageContaining(planted.toString())
            .hasMessageContaining("owned by uid 65534");
      }
    } finally {
      locker.destroyForcibly();
      locker.waitFor(10, TimeUnit.SECONDS);
    }
  }

  /**
   * Other users' lease files that no process holds are not reported as held; the message names
   * them, their owner and mode, and the fix.
   */
  @Test
  void acquire_everyIdAStaleFileOfAnotherUser_messageSaysNotHeld() throws Exception {
    Path leases = Files.createDirectory(sharedTmp().resolve("snowid-leases"));
    chmod(leases, 01777);
    Path ns = Files.createDirectory(leases.resolve("ns"));
    chmod(ns, 01777);
    for (int id = 0; id < 2; id++) {
      Path f = Files.createFile(ns.resolve(id + ".lease"));
      chmod(f, 0644);
      giveTo(f, "nobody");
    }

    try (LeaseCoordinator c = LeaseCoordinators.open("file:" + leases)) {
      assertThatThrownBy(() -> acquire(c, "ns", 2))
          .isInstanceOf(NodeIdsExhaustedException.class)
          .hasMessage(
              "all 2 node ids of namespace ns in "
                  + leases
                  + " are taken: 0 held by running processes, 2 lease files of other users that"
                  + " no process holds but this user (uid 0) cannot take ("
                  + ns.resolve("0.lease")
                  + " owned by uid 65534, mode 0644, "
                  + ns.resolve("1.lease")
                  + " owned by uid 65534, mode 0644); if no process of those users runs snowid,"
                  + " remove those files as root");
    }
  }

  /**
   * A namespace folder is made under a temporary name with its final mode and renamed into place;
   * many creators at once all use the one that won, and no temporary folder is left.
   */
  @Test
  void acquire_manyCreateTheNamespaceFolderAtOnce_oneSharedFolderAndNoTemporaryLeft()
      throws Exception {
    Path leases = Files.createDirectory(sharedTmp().resolve("snowid-leases"));
    chmod(leases, 01777);
    int n = 8;
    java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(n);
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(n);
    List<LeaseCoordinator> coordinators = new java.util.ArrayList<>();
    try {
      List<java.util.concurrent.Future<Long>> ids = new java.util.ArrayList<>();
      for (int i = 0; i < n; i++) {
        LeaseCoordinator c = LeaseCoordinators.open("file:" + leases);
        coordinators.add(c);
        ids.add(
            pool.submit(
                () -> {
                  start.await();
                  return acquire(c, "ns", 16).nodeId();
                }));
      }
      java.util.Set<Long> distinct = new java.util.HashSet<>();
      for (java.util.concurrent.Future<Long> id : ids) {
        distinct.add(id.get(60, TimeUnit.SECONDS));
      }
      assertThat(distinct).hasSize(n);
    } finally {
      coordinators.forEach(LeaseCoordinator::close);
      pool.shutdownNow();
    }
    assertThat(mode(leases.resolve("ns"))).isEqualTo(01777);
    try (var inside = Files.list(leases)) {
      assertThat(inside.map(f -> f.getFileName().toString()))
          .noneMatch(name -> name.endsWith(".new"));
    }
  }

  /**
   * A group-writable lease directory without the sticky bit would let any member delete another's
   * records in it: refused, naming the fix.
   */
  @Test
  void open_groupWritableDirectoryWithoutStickyBit_refusedNamingChmodT() throws Exception {
    Path leases = Files.createDirectory(tmp.resolve("leases"));
    giveToGroup(leases, "nogroup");
    chmod(leases, 02775);
    int gid = (Integer) Files.getAttribute(leases, "unix:gid");

    assertThatThrownBy(() -> LeaseCoordinators.open("file:" + leases))
        .isInstanceOf(LeaseDirectoryException.class)
        .hasMessage(
            "lease directory "
                + leases
                + " refused: it is writable by its group "
                + gid
                + " without the sticky bit (mode 2775), so any member could delete the records"
                + " that keep the others' processes from sharing a node id; chmod +t "
                + leases
                + " as root");
  }
}
