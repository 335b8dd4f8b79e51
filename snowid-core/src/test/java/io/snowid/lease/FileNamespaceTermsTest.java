package io.snowid.lease;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code file:} namespace's terms and marks ({@code DIR/<namespace>@<uid>}): one set of limits
 * while holders may issue, and a newcomer that finds the marks older than their limits (an idle
 * namespace, or a directory restored from a backup) waits what the limits allow any holder.
 */
class FileNamespaceTermsTest {
  private static final LeaseLimits FLEET =
      new LeaseLimits(Duration.ofSeconds(10), Duration.ofSeconds(1));

  @TempDir Path tmp;

  private Path leases() throws Exception {
    return Files.createDirectories(tmp.resolve("leases"));
  }

  private FileLeaseCoordinator open(Path leases) {
    return FileLeaseCoordinator.open("file:" + leases, new HostClaims(tmp.resolve("claims")));
  }

  private static AcquireRequest request(String instance, Duration ttl, LeaseLimits limits) {
    long now = System.currentTimeMillis();
    return new AcquireRequest(
        "ns", 16, 0, 0, instance, new LeaseTerms(ttl, now, now + ttl.toMillis() - 100), limits);
  }

  private Path marks(Path leases) {
    return leases.resolve("ns@" + LeaseDirectory.CurrentUser.uid());
  }

  private static String marksText(long ttl, LeaseLimits limits, long written) {
    return "ttl="
        + ttl
        + "\nhigh-water=0\nmax-ttl="
        + limits.maxTtl().toMillis()
        + "\nmax-skew="
        + limits.maxSkew().toMillis()
        + "\nwritten="
        + written
        + "\nlost-until="
        + Long.MIN_VALUE
        + "\n";
  }

  @Test
  void acquire_otherLimitsWhileTheNamespacesHoldersMayIssue_refusedNamingBothAndTheFile()
      throws Exception {
    Path leases = leases();
    try (FileLeaseCoordinator a = open(leases);
        FileLeaseCoordinator b = open(leases)) {
      a.acquire(request("a", Duration.ofSeconds(2), FLEET));

      assertThatThrownBy(() -> b.acquire(request("b", Duration.ofSeconds(2), LeaseLimits.DEFAULT)))
          .isInstanceOf(LeaseTermsException.class)
          .hasMessageContaining("maxTtl 10s, maxSkew 1s")
          .hasMessageContaining("maxTtl 30s, maxSkew 5s")
          .hasMessageContaining(marks(leases).toString());
      assertThat(Files.readString(marks(leases))).contains("max-ttl=10000\n");
    }
  }

  /**
   * Holders that stopped and whose limits have passed no longer fix them: the next one sets them.
   */
  @Test
  void acquire_otherLimitsOnceTheLastWriteIsPastItsLimits_acceptedAndRecorded() throws Exception {
    Path leases = leases();
    long written = System.currentTimeMillis() - 13_000; // + 10 s + 1 s + 1 s: passed
    Files.writeString(marks(leases), marksText(5_000, FLEET, written), UTF_8);

    try (FileLeaseCoordinator c = open(leases)) {
      c.acquire(request("c", Duration.ofSeconds(2), LeaseLimits.DEFAULT));
    }
    assertThat(Files.readString(marks(leases)))
        .startsWith("ttl=2000\n")
        .contains("max-ttl=30000\nmax-skew=5000\n");
  }

  /**
   * An idle namespace (or one restored from an old backup): its marks are older than their limits,
   * so a holder may run with a longer lease time than they say. A newcomer on an id without a
   * record waits the limits' maxTtl, not the recorded lease time, and records the loss: the next
   * newcomer waits it out too, although the files it reads are then live again.
   */
  @Test
  void acquire_marksOlderThanTheirLimits_newcomerWaitsMaxTtlAndTheNextTheRecordedLoss()
      throws Exception {
    Path leases = leases();
    Files.writeString(
        marks(leases),
        marksText(2_000, LeaseLimits.DEFAULT, System.currentTimeMillis() - 3_600_000),
        UTF_8);

    try (FileLeaseCoordinator c = open(leases)) {
      long before = System.currentTimeMillis();
      Lease first = c.acquire(request("c", Duration.ofSeconds(2), LeaseLimits.DEFAULT));
      assertThat(first.highWaterMillis()).isGreaterThanOrEqualTo(before + 30_000);
      assertThat(Files.readString(marks(leases))).doesNotContain("lost-until=-");

      Lease second = c.acquire(request("d", Duration.ofSeconds(2), LeaseLimits.DEFAULT));
      assertThat(second.highWaterMillis())
          .as("after maxTtl + maxSkew + 1 s from the loss the first found")
          .isGreaterThanOrEqualTo(before + 36_000);
    }
  }

  /**
   * A directory copied back from a backup a few seconds old under running holders: its marks look
   * recent, but their change time is later than their last write. The first newcomer records the
   * loss, so a newcomer after it does not trust the lease time the first one rewrote.
   */
  @Test
  void acquire_marksCopiedBackFromAYoungBackup_everyNewcomerWaitsOutTheLimits() throws Exception {
    Path leases = leases();
    long backup = System.currentTimeMillis() - 5_000; // younger than maxTtl: looks live by age
    Files.writeString(marks(leases), marksText(2_000, LeaseLimits.DEFAULT, backup), UTF_8);

    try (FileLeaseCoordinator c = open(leases)) {
      long before = System.currentTimeMillis();
      Lease first = c.acquire(request("p", Duration.ofSeconds(2), LeaseLimits.DEFAULT));
      Lease second = c.acquire(request("b", Duration.ofSeconds(2), LeaseLimits.DEFAULT));

      assertThat(first.highWaterMillis()).isGreaterThanOrEqualTo(before + 30_000);
      assertThat(second.highWaterMillis()).isGreaterThanOrEqualTo(before + 36_000);
    }
  }

  /**
   * A file written ahead of this clock (by a process under a faked clock, or forged by another user
   * of a shared directory) fixes no limits: it would refuse every holder until then.
   */
  @Test
  void acquire_marksWrittenInTheFuture_fixNoLimits() throws Exception {
    Path leases = leases();
    long future = System.currentTimeMillis() + 86_400_000;
    Files.writeString(marks(leases), marksText(1_000, FLEET, future), UTF_8);

    try (FileLeaseCoordinator c = open(leases)) {
      c.acquire(request("c", Duration.ofSeconds(2), LeaseLimits.DEFAULT));
    }
    assertThat(Files.readString(marks(leases))).contains("max-ttl=30000\n");
  }

  /** A lease time above its own file's maxTtl is damage, not a wait of years. */
  @Test
  void acquire_ownMarksWithALeaseTimeBeyondTheLimits_refusedAsDamagedNamingTheFile()
      throws Exception {
    Path leases = leases();
    Files.writeString(
        marks(leases), marksText(9_000_000_000_000L, FLEET, System.currentTimeMillis()), UTF_8);

    try (FileLeaseCoordinator c = open(leases)) {
      assertThatThrownBy(() -> c.acquire(request("c", Duration.ofSeconds(2), LeaseLimits.DEFAULT)))
          .isInstanceOf(io.snowid.node.NodeIdUnavailableException.class)
          .hasMessageContaining(marks(leases) + " is damaged");
    }
  }

  /** The quick start: a new directory has no marks to distrust, and waits its own lease time. */
  @Test
  void acquire_newDirectory_waitsOnlyItsOwnTtl() throws Exception {
    Path leases = leases();
    try (FileLeaseCoordinator c = open(leases)) {
      long before = System.currentTimeMillis();
      Lease l = c.acquire(request("c", Duration.ofSeconds(2), LeaseLimits.DEFAULT));
      assertThat(l.highWaterMillis())
          .isGreaterThanOrEqualTo(before + 2_000)
          .isLessThan(before + 30_000);
    }
  }

  /**
   * A lease time once used is waited only while its holders may issue: an hour recorded long ago
   * does not make every newcomer wait an hour.
   */
  @Test
  void acquire_longTtlOfHoldersLongGone_notWaitedAnyMore() throws Exception {
    Path leases = leases();
    LeaseLimits hour = new LeaseLimits(Duration.ofHours(1), Duration.ofSeconds(5));
    Files.writeString(
        marks(leases), marksText(3_600_000, hour, System.currentTimeMillis() - 7_300_000), UTF_8);

    try (FileLeaseCoordinator c = open(leases)) {
      long before = System.currentTimeMillis();
      Lease l = c.acquire(request("c", Duration.ofSeconds(2), LeaseLimits.DEFAULT));
      assertThat(l.highWaterMillis())
          .isGreaterThanOrEqualTo(before + 30_000)
          .isLessThan(before + 60_000);
    }
    assertThat(Files.readString(marks(leases))).startsWith("ttl=2000\n");
  }

  /**
   * A file with lines missing says nothing that can be trusted: this user's own is refused as
   * damaged, naming it (never read as a namespace without marks).
   */
  @Test
  void acquire_ownMarksWithLinesMissing_refusedAsDamagedNamingTheFile() throws Exception {
    Path leases = leases();
    Files.writeString(marks(leases), "ttl=40000\nhigh-water=0\n", UTF_8);

    try (FileLeaseCoordinator c = open(leases)) {
      assertThatThrownBy(() -> c.acquire(request("c", Duration.ofSeconds(2), LeaseLimits.DEFAULT)))
          .isInstanceOf(io.snowid.node.NodeIdUnavailableException.class)
          .hasMessageContaining(marks(leases) + " is damaged");
    }
  }

  @Test
  void renew_rewritesTheMarksWithTheTimeOfTheRenewal() throws Exception {
    Path leases = leases();
    try (FileLeaseCoordinator c = open(leases)) {
      Lease l = c.acquire(request("c", Duration.ofSeconds(2), FLEET));
      Files.writeString(
          marks(leases), marksText(2_000, FLEET, System.currentTimeMillis() - 1_000), UTF_8);
      long before = System.currentTimeMillis();
      long now = before + 5_000; // the holder's clock, ahead: the file keeps the host's
      c.renew(l, new LeaseTerms(Duration.ofSeconds(2), now, now + 1_900));
      String written =
          Files.readString(marks(leases)).replaceAll("(?s).*written=([0-9]+).*", "$1").trim();
      assertThat(Long.parseLong(written)).isBetween(before, System.currentTimeMillis());
    }
  }

  /** A file written ahead of this clock (forged, or under a faked clock) is not what is shown. */
  @Test
  void list_marksWrittenInTheFuture_notShownAsTheNamespacesTerms() throws Exception {
    Path leases = leases();
    Files.createDirectories(leases.resolve("ns"));
    Files.writeString(
        leases.resolve("ns@65534"),
        marksText(1_000, new LeaseLimits(Duration.ofSeconds(1), Duration.ZERO), 4_102_444_800_000L),
        UTF_8);

    try (FileLeaseCoordinator c = open(leases)) {
      assertThat(c.list("ns").state()).isEmpty();
    }
  }

  @Test
  void list_showsTheNamespacesLimitsAndNewestWrite() throws Exception {
    Path leases = leases();
    try (FileLeaseCoordinator c = open(leases)) {
      Lease l = c.acquire(request("c", Duration.ofSeconds(2), FLEET));
      NamespaceState state = c.list("ns").state().orElseThrow();
      assertThat(state.limits()).isEqualTo(FLEET);
      assertThat(state.newestWriteMillis()).isLessThanOrEqualTo(System.currentTimeMillis());
      assertThat(state.newestWriteMillis()).isGreaterThan(l.coordinatorNowMillis() - 1_000);
      assertThat(state.lostUntilMillis()).isEqualTo(Long.MIN_VALUE);
    }
  }

  /**
   * Two processes read the clock, then take the marks file's lock in the other order: the first
   * writes a loss mark as of its later reading, the second writes after it with its earlier one.
   * The file stays readable, and the loss mark is kept.
   */
  @Test
  void raise_aWriterWithAnEarlierClockReadingFollowsALossMark_fileStaysReadable() throws Exception {
    Path leases = leases();
    long now = System.currentTimeMillis();
    long lostUntil = FLEET.lostUntilMillis(now);
    NamespaceMarks.raise(leases, "ns", 2_000, 0, FLEET, lostUntil, now);
    NamespaceMarks.raise(leases, "ns", 2_000, 5, FLEET, Long.MIN_VALUE, now - 500);

    NamespaceMarks.raise(leases, "ns", 2_000, 6, FLEET, Long.MIN_VALUE, now);
    NamespaceMarks.Seen seen = NamespaceMarks.readAll(leases, "ns", now);
    assertThat(seen.live()).as("the file, read back").isNotNull();
    assertThat(seen.lostUntil()).isEqualTo(lostUntil);
    assertThat(seen.highWater()).isEqualTo(6);
  }
}
