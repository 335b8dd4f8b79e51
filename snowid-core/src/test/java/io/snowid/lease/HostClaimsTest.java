package io.snowid.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.snowid.InvalidSettingException;
import io.snowid.node.NodeIdUnavailableException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Host-wide claims: two lease directories of one host never hand out the same node values at once,
 * and a newcomer on one starts after what a holder on the other recorded. The claims live in a
 * place of this test's own (the package-private seam), so the test neither sees nor disturbs the
 * host's {@code /tmp/snowid-claims}.
 */
class HostClaimsTest {
  private static final String NS = "orders.t41-n10-s12-e1288834974657-u1";
  private static final int NOBODY = 65534;

  @TempDir Path tmp;
  private final List<LeaseCoordinator> open = new ArrayList<>();

  /** The build turns claims off for every other test ({@code snowid.host-claim=off}). */
  private String property;

  @BeforeEach
  void clearProperty() {
    property = System.clearProperty(HostClaims.PROPERTY);
  }

  @AfterEach
  void close() {
    open.forEach(LeaseCoordinator::close);
    if (property == null) {
      System.clearProperty(HostClaims.PROPERTY);
    } else {
      System.setProperty(HostClaims.PROPERTY, property);
    }
  }

  private Path place() {
    return tmp.resolve("claims");
  }

  private LeaseCoordinator coordinator(String dirName) {
    return coordinator(dirName, new HostClaims(place()));
  }

  private LeaseCoordinator coordinator(String dirName, HostClaims claims) {
    LeaseCoordinator c = FileLeaseCoordinator.open("file:" + tmp.resolve(dirName), claims);
    open.add(c);
    return c;
  }

  private static LeaseTerms terms() {
    long now = System.currentTimeMillis();
    return new LeaseTerms(Duration.ofSeconds(2), now, now + 1_600);
  }

  private static Lease acquire(LeaseCoordinator c, String instance) {
    return c.acquire(new AcquireRequest(NS, 4, instance, terms()));
  }

  private Path claimFile(long id, long uid) {
    return place().resolve(NS + "@" + id + "." + uid);
  }

  private static void giveTo(Path p, int uid) throws IOException {
    UserPrincipal u =
        p.getFileSystem()
            .getUserPrincipalLookupService()
            .lookupPrincipalByName(uid == NOBODY ? "nobody" : Integer.toString(uid));
    Files.getFileAttributeView(p, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
        .setOwner(u);
    assertThat(Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS)).isEqualTo(uid);
  }

  private static void run(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).inheritIO().start();
    assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(String.join(" ", command)).isZero();
  }

  private static void assumeRoot() {
    assumeThat(LeaseDirectory.CurrentUser.uid()).as("runs as root (CI does)").isZero();
  }

  /** A claim file's content as snowid writes it. */
  private static String mark(long highWater, long ttlMillis) {
    String line = "1 " + highWater + " " + ttlMillis;
    CRC32 crc = new CRC32();
    crc.update(line.getBytes(StandardCharsets.UTF_8));
    return line + " " + crc.getValue() + "\n";
  }

  @Test
  void acquire_twoDirectoriesOneNamespace_secondGetsAnotherIdUntilTheFirstReleases() {
    LeaseCoordinator first = coordinator("leases-a");
    LeaseCoordinator second = coordinator("leases-b");

    Lease a = acquire(first, "a");
    Lease b = acquire(second, "b");

    assertThat(a.nodeId()).isZero();
    assertThat(b.nodeId()).isEqualTo(1);

    first.release(a, System.currentTimeMillis());
    assertThat(acquire(second, "c").nodeId()).isZero();
  }

  @Test
  void acquire_everyIdHeldByAnotherDirectory_exhaustedNamingTheClaims() {
    LeaseCoordinator first = coordinator("leases-a");
    LeaseCoordinator second = coordinator("leases-b");
    for (int i = 0; i < 4; i++) {
      acquire(first, "a" + i);
    }

    assertThatThrownBy(() -> acquire(second, "b"))
        .isInstanceOf(NodeIdsExhaustedException.class)
        .hasMessage(
            "all 4 node ids of namespace "
                + NS
                + " in "
                + tmp.resolve("leases-b")
                + " (4 of them free here but held by processes of other lease directories of this"
                + " host, claimed host-wide in "
                + place()
                + ": one lease directory per host) are held");
  }

  /**
   * A holder on another directory recorded how far it issued: the newcomer on this one starts after
   * it, although this directory's own record (released) would let it start at once.
   */
  @Test
  void acquire_afterAHolderOfAnotherDirectory_startsAfterItsHighWaterMark() {
    LeaseCoordinator first = coordinator("leases-a");
    LeaseCoordinator second = coordinator("leases-b");
    Lease earlier = acquire(second, "b");
    second.release(earlier, earlier.highWaterMillis());
    Lease a = acquire(first, "a");
    long issuedUpTo = System.currentTimeMillis() + 10_000;
    first.release(a, issuedUpTo);

    Lease b = acquire(second, "b");

    assertThat(b.nodeId()).isEqualTo(a.nodeId()).isEqualTo(earlier.nodeId());
    assertThat(b.highWaterMillis()).isEqualTo(issuedUpTo);
  }

  @Test
  void renew_claimFileDeletedUnderTheHolder_fences() throws IOException {
    LeaseCoordinator first = coordinator("leases-a");
    Lease a = acquire(first, "a");
    Path claim = claimFile(a.nodeId(), LeaseDirectory.CurrentUser.uid());
    assertThat(claim).isRegularFile();

    Files.delete(claim);

    assertThatThrownBy(() -> first.renew(a, terms()))
        .isInstanceOf(LeaseTakenException.class)
        .hasMessageContaining("its host-wide claim " + claim + " was deleted");
    assertThat(acquire(coordinator("leases-b"), "b").nodeId()).isZero();
  }

  @Test
  void renew_oldClaimFile_madeYoungForTmpCleaners() throws Exception {
    LeaseCoordinator first = coordinator("leases-a");
    Lease a = acquire(first, "a");
    Path claim = claimFile(a.nodeId(), LeaseDirectory.CurrentUser.uid());
    // by another process: setting the times here would open and close the file in its holder's
    // process, which drops the holder's lock
    run("touch", "-a", "-m", "-d", "30 days ago", claim.toString());
    assertThat(Files.getLastModifiedTime(claim).toInstant())
        .isBefore(Instant.now().minus(Duration.ofDays(29)));

    first.renew(a, terms());

    Instant recent = Instant.now().minusSeconds(60);
    assertThat(Files.getLastModifiedTime(claim).toInstant()).isAfter(recent);
    assertThat(((FileTime) Files.getAttribute(claim, "lastAccessTime")).toInstant())
        .isAfter(recent);
  }

  /** Another user's claim, locked by a live process: the id is that process's. */
  @Tag("integration")
  @Test
  void acquire_anotherUsersHeldClaim_isTaken() throws IOException {
    assumeRoot();
    LeaseCoordinator first = coordinator("leases-a");
    Files.createDirectory(place());
    Path theirs = Files.createFile(claimFile(0, NOBODY));
    giveTo(theirs, NOBODY);

    try (LockHolder held = LockHolder.lock(theirs)) {
      assertThat(acquire(first, "a").nodeId()).isEqualTo(1);
    }
  }

  /**
   * A file named for another user that this user (root) owns is a fake: held by a live process or
   * not, it says nothing, and the id stays free.
   */
  @Tag("integration")
  @Test
  void acquire_claimFileNotOwnedByTheUserItNames_ignored() throws IOException {
    assumeRoot();
    LeaseCoordinator first = coordinator("leases-a");
    Files.createDirectory(place());
    Path fake = Files.createFile(claimFile(0, NOBODY)); // owned by root, named for nobody

    try (LockHolder held = LockHolder.lock(fake)) {
      assertThat(acquire(first, "a").nodeId()).isZero();
    }
  }

  /** Another user's mark that no lease time explains (a forged file): refused, naming it. */
  @Test
  void acquire_anotherUsersClaimMarkFarAhead_refusedNamingTheFile() throws IOException {
    assumeRoot();
    LeaseCoordinator first = coordinator("leases-a");
    Files.createDirectory(place());
    Path theirs = claimFile(0, NOBODY);
    long ahead = System.currentTimeMillis() + Duration.ofHours(1).toMillis();
    Files.writeString(theirs, mark(ahead, 2_000));
    giveTo(theirs, NOBODY);

    assertThatThrownBy(() -> acquire(first, "a"))
        .isInstanceOf(NodeIdUnavailableException.class)
        .hasMessageContaining(theirs + " (owned by uid 65534) records a high-water mark of ")
        .hasMessageContaining("remove " + theirs + " as root or as its owner");
  }

  /**
   * A damaged claim file: what its holder issued is unknown, so the newcomer waits one lease time,
   * although the lease file's own record (released) would let it start at once.
   */
  @Test
  void acquire_damagedClaimFile_waitsOneLeaseTime() throws IOException {
    LeaseCoordinator first = coordinator("leases-a");
    Lease a = acquire(first, "a");
    first.release(a, System.currentTimeMillis());
    Path claim = claimFile(a.nodeId(), LeaseDirectory.CurrentUser.uid());
    Files.writeString(claim, "1 9 2000 0\n"); // bad checksum

    long before = System.currentTimeMillis();
    Lease b = acquire(first, "b");

    assertThat(b.nodeId()).isEqualTo(a.nodeId());
    assertThat(b.highWaterMillis()).isGreaterThanOrEqualTo(before + 2_000);
  }

  @Test
  void acquire_placeOwnedByAnotherUser_refusedWithTheReasonAndTheFix() throws IOException {
    assumeRoot();
    Path place = Files.createDirectory(place());
    giveTo(place, NOBODY);
    LeaseCoordinator c = coordinator("leases-a");

    assertThatThrownBy(() -> acquire(c, "a"))
        .isInstanceOf(NodeIdUnavailableException.class)
        .hasMessage(
            "host-wide claims of file: leases in "
                + place
                + " refused: it is owned by uid 65534, not by this user (uid 0) or root, who could"
                + " delete or replace its claim files, and it is not shared by the users of this"
                + " host (mode 0755); as root, chown root "
                + place
                + " && chmod 1777 "
                + place
                + " (or remove it and create it as root beforehand: install -d -m 1777 "
                + place
                + "). Without claims two lease directories of this host could hand out the same"
                + " node values: keep one lease directory per host, then turn them off with"
                + " snowid.host-claim=off (SNOWID_HOST_CLAIM=off)");
  }

  @Test
  void acquire_placeOwnedByAnotherUserButClaimsOff_works() throws IOException {
    assumeRoot();
    Path place = Files.createDirectory(place());
    giveTo(place, NOBODY);
    System.setProperty(HostClaims.PROPERTY, "off");

    LeaseCoordinator c = coordinator("leases-a", HostClaims.configured(place, name -> null));

    assertThat(acquire(c, "a").nodeId()).isZero();
    assertThat(place).isEmptyDirectory();
  }

  @Test
  void configured_environmentVariableOff_noClaims() {
    HostClaims claims =
        HostClaims.configured(place(), name -> name.equals("SNOWID_HOST_CLAIM") ? "OFF" : null);

    assertThat(claims.isOn()).isFalse();
  }

  @Test
  void configured_propertyOn_winsOverTheVariable() {
    System.setProperty(HostClaims.PROPERTY, "on");

    HostClaims claims = HostClaims.configured(place(), name -> "off");

    assertThat(claims.isOn()).isTrue();
  }

  @Test
  void configured_neither_on() {
    assertThat(HostClaims.configured(place(), name -> null).isOn()).isTrue();
  }

  @Test
  void configured_nearMiss_refusedWithDidYouMean() {
    System.setProperty(HostClaims.PROPERTY, "false");

    assertThatThrownBy(() -> HostClaims.configured(place(), name -> null))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("snowid.host-claim = false is invalid; allowed: on or off (did you mean off?)");
  }

  @Test
  void configured_otherValue_refusedNamingTheVariable() {
    assertThatThrownBy(() -> HostClaims.configured(place(), name -> "sometimes"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("SNOWID_HOST_CLAIM = sometimes is invalid; allowed: on or off");
  }

  /** A tmp cleaner removed the (empty) place: the next acquisition makes it again. */
  @Test
  void acquire_placeRemoved_createdAgain() throws IOException {
    LeaseCoordinator first = coordinator("leases-a");
    Lease a = acquire(first, "a");
    first.release(a, System.currentTimeMillis());
    try (var files = Files.list(place())) {
      for (Path f : files.toList()) {
        Files.delete(f);
      }
    }
    Files.delete(place());

    Lease b = acquire(first, "b");

    assertThat(claimFile(b.nodeId(), LeaseDirectory.CurrentUser.uid())).isRegularFile();
  }

  /**
   * The holder's claim file is its own user's, readable by all whatever the umask, and records the
   * high-water mark and lease time; released, it stays (another process may lock it meanwhile).
   */
  @Test
  void acquire_claimFile_ownedByThisUserMode0644KeptAfterRelease() throws IOException {
    LeaseCoordinator first = coordinator("leases-a");
    Lease a = acquire(first, "a");
    Path claim = claimFile(a.nodeId(), LeaseDirectory.CurrentUser.uid());
    assertThat(Files.getAttribute(claim, "unix:uid", LinkOption.NOFOLLOW_LINKS))
        .isEqualTo(LeaseDirectory.CurrentUser.uid());
    assertThat((Integer) Files.getAttribute(claim, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 07777)
        .isEqualTo(0644);

    first.release(a, 1234);

    // read only now: opening a held file in its holder's process would drop the lock
    assertThat(Files.readString(claim)).isEqualTo(mark(a.highWaterMillis(), 2_000));
  }
}
