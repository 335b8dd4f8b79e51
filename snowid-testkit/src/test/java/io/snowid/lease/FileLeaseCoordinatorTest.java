package io.snowid.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.node.NodeIdUnavailableException;
import io.snowid.testkit.LeaseCoordinatorContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Comparator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file: coordinator passes the contract every coordinator must pass. */
class FileLeaseCoordinatorTest extends LeaseCoordinatorContract {
  @TempDir Path dir;

  @Override
  protected LeaseCoordinator newCoordinator() {
    return LeaseCoordinators.open("file:" + dir);
  }

  /**
   * Deletes the namespace's folder and its files. Its live holders keep their ids through their OS
   * locks and host-wide claims, and a new record starts one lease time ahead.
   */
  @Override
  protected void deleteNamespace(String namespace) {
    try (var files = Files.walk(dir.resolve(namespace))) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static final Duration TTL = Duration.ofSeconds(2);

  private static long now() {
    return System.currentTimeMillis();
  }

  private Path file(Lease l) {
    return dir.resolve(namespace).resolve(l.nodeId() + ".lease");
  }

  // A damaged record that nobody holds does not block its id: the next acquirer repairs it and
  // waits one lease time, since its high-water mark is lost.
  @Test
  void acquire_damagedRecordNobodyHolds_repairedAfterOneLeaseTime() throws Exception {
    LeaseCoordinator c = newCoordinator();
    Lease first =
        c.acquire(new AcquireRequest(namespace, 1, "a", new LeaseTerms(TTL, 1_000, 5_000)));
    c.release(first, 4_000);
    String record = Files.readString(file(first));
    assertThat(record).contains("highWater=4000").hasSize(512);
    Files.writeString(file(first), record.replace("highWater=4000", "highWater=1000"));

    long now = now();
    Lease next =
        c.acquire(new AcquireRequest(namespace, 1, "b", new LeaseTerms(TTL, now, now + 1_000)));

    assertThat(next.nodeId()).isEqualTo(first.nodeId());
    assertThat(next.highWaterMillis()).isEqualTo(now + TTL.toMillis());
    assertThat(Files.readString(file(next))).contains("token=" + next.token());
    c.close();
  }

  @Test
  void release_rewritesTheRecordInPlaceAtFixedSize() throws Exception {
    LeaseCoordinator c = newCoordinator();
    Lease l = c.acquire(new AcquireRequest(namespace, 1, "a", new LeaseTerms(TTL, 1_000, 5_000)));
    Path file = file(l);
    long sizeHeld = Files.size(file);
    c.release(l, 4_000);
    assertThat(Files.size(file)).isEqualTo(sizeHeld).isEqualTo(512);
    assertThat(
            c.acquire(new AcquireRequest(namespace, 1, "a", new LeaseTerms(TTL, 1_000, 5_000)))
                .highWaterMillis())
        .isEqualTo(4_000);
    c.close();
  }

  // An id without a record cannot be told from one whose record was deleted under a live holder;
  // the newcomer waits out the holder's detection interval (one lease time).
  @Test
  void acquire_idWithoutRecord_startsAfterOneLeaseTime() {
    LeaseCoordinator c = newCoordinator();
    long now = now();
    Lease l =
        c.acquire(new AcquireRequest(namespace, 4, "a", new LeaseTerms(TTL, now, now + 1_000)));
    assertThat(l.highWaterMillis()).isEqualTo(now + TTL.toMillis());
  }

  // A renewal checks more than FileLock.isValid(): after rm -rf of the directory it fails, so a
  // newcomer never takes the worker of a holder that keeps renewing.
  @Test
  void renew_leaseDirectoryDeleted_failsAndTheIdIsNotHandedOutTwice() throws Exception {
    LeaseCoordinator holder = newCoordinator();
    Lease held =
        holder.acquire(
            new AcquireRequest(namespace, 1, "holder", new LeaseTerms(TTL, now(), now() + 1_000)));
    deleteTree(dir);

    LeaseCoordinator newcomer = LeaseCoordinators.open("file:" + dir);
    long now = now();
    Lease other =
        newcomer.acquire(
            new AcquireRequest(namespace, 1, "newcomer", new LeaseTerms(TTL, now, now + 1_000)));

    assertThatThrownBy(() -> holder.renew(held, new LeaseTerms(TTL, now(), now() + 1_000)))
        .isInstanceOf(LeaseTakenException.class)
        .hasMessageContaining("was replaced");
    // the newcomer cannot know what the holder issued: it starts after the detection interval
    assertThat(other.highWaterMillis()).isGreaterThanOrEqualTo(now + TTL.toMillis());
    newcomer.close();
    holder.close();
  }

  @Test
  void renew_leaseDirectoryDeletedAndNotRecreated_throwsLeaseTaken() throws Exception {
    LeaseCoordinator c = newCoordinator();
    Lease l =
        c.acquire(
            new AcquireRequest(namespace, 1, "holder", new LeaseTerms(TTL, now(), now() + 1_000)));
    deleteTree(dir);

    assertThatThrownBy(() -> c.renew(l, new LeaseTerms(TTL, now(), now() + 1_000)))
        .isInstanceOf(LeaseTakenException.class)
        .hasMessageContaining("lease directory")
        .hasMessageContaining("was deleted");
    c.close();
  }

  @Test
  void renew_leaseFileDeleted_throwsLeaseTaken() throws Exception {
    LeaseCoordinator c = newCoordinator();
    Lease l =
        c.acquire(
            new AcquireRequest(namespace, 1, "holder", new LeaseTerms(TTL, now(), now() + 1_000)));
    Files.delete(file(l));

    assertThatThrownBy(() -> c.renew(l, new LeaseTerms(TTL, now(), now() + 1_000)))
        .isInstanceOf(LeaseTakenException.class)
        .hasMessageContaining("lease file")
        .hasMessageContaining("was deleted");
    c.close();
  }

  // A backup restore or an editor's save replaces the file atomically with an identical copy: the
  // lock stays on the old file, and a newcomer could lock the new one.
  @Test
  void renew_leaseFileReplacedByAnIdenticalCopy_throwsLeaseTaken() throws Exception {
    LeaseCoordinator c = newCoordinator();
    Lease l =
        c.acquire(
            new AcquireRequest(namespace, 1, "holder", new LeaseTerms(TTL, now(), now() + 1_000)));
    Path copy = dir.resolve(namespace).resolve("copy.tmp");
    Files.copy(file(l), copy);
    Files.move(copy, file(l), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);

    assertThatThrownBy(() -> c.renew(l, new LeaseTerms(TTL, now(), now() + 1_000)))
        .isInstanceOf(LeaseTakenException.class)
        .hasMessageContaining("replaced");
    c.close();
  }

  @Test
  void renew_recordOverwrittenWithAnotherHoldersRecord_throwsLeaseTaken() throws Exception {
    LeaseCoordinator c = newCoordinator();
    Lease mine =
        c.acquire(
            new AcquireRequest(namespace, 2, "holder", new LeaseTerms(TTL, now(), now() + 1_000)));
    Lease other =
        c.acquire(
            new AcquireRequest(namespace, 2, "other", new LeaseTerms(TTL, now(), now() + 1_000)));
    byte[] othersRecord = Files.readAllBytes(file(other));
    try (FileChannel ch = FileChannel.open(file(mine), StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(othersRecord), 0); // in place: same file, lock untouched
    }

    assertThatThrownBy(() -> c.renew(mine, new LeaseTerms(TTL, now(), now() + 1_000)))
        .isInstanceOf(LeaseTakenException.class)
        .hasMessageContaining("names another holder");
    c.close();
  }

  // A record damaged while held does not fence the holder for good (every renewal failing on the
  // checksum): a holder that still holds the lock rewrites it and carries on.
  @Test
  void renew_recordDamagedWhileHeld_rewritesItAndCarriesOn() throws Exception {
    LeaseCoordinator c = newCoordinator();
    long now = now();
    Lease l =
        c.acquire(
            new AcquireRequest(namespace, 1, "holder", new LeaseTerms(TTL, now, now + 1_000)));
    try (FileChannel ch = FileChannel.open(file(l), StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap("garbage".getBytes(StandardCharsets.US_ASCII)), 40);
    }

    Lease renewed = c.renew(l, new LeaseTerms(TTL, now + 500, now + 7_000));

    assertThat(renewed.expiresAtMillis()).isEqualTo(now + 500 + TTL.toMillis());
    assertThat(Files.readString(file(l)))
        .contains("token=" + l.token())
        .contains("highWater=" + (now + 7_000));
    c.close();
  }

  @Test
  void renew_fileEmptiedWhileHeld_rewritesItAndCarriesOn() throws Exception {
    LeaseCoordinator c = newCoordinator();
    long now = now();
    Lease l =
        c.acquire(
            new AcquireRequest(namespace, 1, "holder", new LeaseTerms(TTL, now, now + 9_000)));
    try (FileChannel ch = FileChannel.open(file(l), StandardOpenOption.WRITE)) {
      ch.truncate(0);
    }

    c.renew(l, new LeaseTerms(TTL, now + 500, now + 1_000));

    assertThat(Files.readString(file(l))).contains("highWater=" + (now + 9_000));
    c.close();
  }

  // Records carry a version; one written by a newer snowid is never taken over.
  @Test
  void acquire_recordOfAnUnknownVersion_countsTheIdAsTaken() throws Exception {
    LeaseCoordinator c = newCoordinator();
    Lease l = c.acquire(new AcquireRequest(namespace, 1, "a", new LeaseTerms(TTL, 1_000, 5_000)));
    c.release(l, 2_000);
    LeaseRecord future =
        new LeaseRecord(
            LeaseRecord.VERSION + 1,
            "x",
            "",
            "h",
            "",
            -1,
            "",
            -1,
            2_000,
            System.currentTimeMillis(),
            2_000,
            2_000,
            Long.MIN_VALUE);
    Files.write(file(l), future.bytes());

    assertThatThrownBy(
            () ->
                c.acquire(
                    new AcquireRequest(
                        namespace, 1, "b", new LeaseTerms(TTL, now(), now() + 1_000))))
        .isInstanceOf(NodeIdUnavailableException.class);
    c.close();
  }

  @Test
  void acquire_unexpiredRecordOfAHolderInAnotherPidNamespace_countsTheIdAsTaken() throws Exception {
    LeaseCoordinator c = newCoordinator();
    Path ns = dir.resolve(namespace);
    Files.createDirectories(ns);
    long now = now();
    LeaseRecord elsewhere =
        new LeaseRecord(
            LeaseRecord.VERSION,
            "pod",
            "t0k3n",
            "other-host",
            "boot",
            1,
            "pid:[1]",
            42,
            2_000,
            System.currentTimeMillis(),
            now,
            now + 1_000,
            now + 60_000);
    Files.write(ns.resolve("0.lease"), elsewhere.bytes());

    assertThatThrownBy(
            () ->
                c.acquire(
                    new AcquireRequest(namespace, 1, "b", new LeaseTerms(TTL, now, now + 1_000))))
        .isInstanceOf(NodeIdUnavailableException.class);
    // expired: taken, after one lease time and after its high-water mark
    Lease l =
        c.acquire(
            new AcquireRequest(namespace, 1, "b", new LeaseTerms(TTL, now + 61_000, now + 62_000)));
    assertThat(l.highWaterMillis()).isEqualTo(now + 61_000 + TTL.toMillis());
    c.close();
  }

  /** A record as snowid writes it, for a test to plant: released unless a token is given. */
  private static LeaseRecord record(
      String token, long ttlMillis, long writtenAt, long highWater, long expiresAt) {
    return new LeaseRecord(
        LeaseRecord.VERSION,
        "planted",
        token,
        "other-host",
        "",
        -1,
        "",
        -1,
        ttlMillis,
        writtenAt,
        highWater,
        highWater,
        expiresAt);
  }

  // A backup of a released record, restored under a running holder, does not let a newcomer take
  // the id at once and start after the backup's stale high-water mark: it waits one lease time.
  @Test
  void acquire_releasedRecordPutThereByACopy_waitsOneLeaseTime() throws Exception {
    LeaseCoordinator c = newCoordinator();
    Path ns = Files.createDirectories(dir.resolve(namespace));
    long now = now();
    // written by snowid 5 s ago (its time says so), but the file changes now: a restore
    Files.write(
        ns.resolve("0.lease"), record("", 2_000, now - 5_000, now - 4_000, Long.MIN_VALUE).bytes());

    Lease l = c.acquire(new AcquireRequest(namespace, 1, "b", new LeaseTerms(TTL, now, now)));

    assertThat(l.highWaterMillis()).isGreaterThanOrEqualTo(now + TTL.toMillis());
    c.close();
  }

  @Test
  void acquire_releasedRecordAsSnowidWroteIt_takenAtOnce() throws Exception {
    LeaseCoordinator c = newCoordinator();
    Lease first = c.acquire(new AcquireRequest(namespace, 1, "a", new LeaseTerms(TTL, 0, 0)));
    long now = now();
    c.release(first, now - 10);

    Lease l = c.acquire(new AcquireRequest(namespace, 1, "b", new LeaseTerms(TTL, now, now)));

    assertThat(l.highWaterMillis()).isLessThan(now);
    c.close();
  }

  // A record naming this very process is not taken for a leftover of a closed coordinator: after a
  // restore (a new file nobody in this JVM claimed) a second coordinator of this JVM does not take
  // a live holder's id.
  @Test
  void acquire_recordOfALiveHolderInThisJvmRestoredByACopy_countsTheIdAsTaken() throws Exception {
    LeaseCoordinator holder = newCoordinator();
    Lease l =
        holder.acquire(
            new AcquireRequest(namespace, 1, "svc", new LeaseTerms(TTL, now(), now() + 1_000)));
    Path copy = dir.resolve(namespace).resolve("copy.tmp");
    Files.copy(file(l), copy);
    Files.move(copy, file(l), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);

    LeaseCoordinator neighbour = newCoordinator();
    assertThatThrownBy(
            () ->
                neighbour.acquire(
                    new AcquireRequest(
                        namespace, 1, "svc", new LeaseTerms(TTL, now(), now() + 1_000))))
        .isInstanceOf(NodeIdUnavailableException.class);
    neighbour.close();
    holder.close();
  }

  // A newcomer that finds no record waits one lease time and starts after every high-water mark of
  // the namespace: the holder whose record was lost may run on a clock ahead of its own (started
  // before a step back), and the other records of the namespace show how far ahead.
  @Test
  void acquire_idWithoutRecord_startsAfterEveryHighWaterMarkOfTheNamespace() throws Exception {
    LeaseCoordinator c = newCoordinator();
    Path ns = Files.createDirectories(dir.resolve(namespace));
    long now = now();
    Files.write(
        ns.resolve("0.lease"),
        record("t0k3n", 2_000, System.currentTimeMillis(), now + 10_000, now + 60_000).bytes());

    Lease l = c.acquire(new AcquireRequest(namespace, 2, "b", new LeaseTerms(TTL, now, now)));

    assertThat(l.nodeId()).isEqualTo(1);
    assertThat(l.highWaterMillis()).isGreaterThanOrEqualTo(now + 10_000);
    c.close();
  }

  // A holder with a longer lease time than the newcomer's could still issue after the newcomer's
  // one-ttl wait; the newcomer waits the longest lease time any record names.
  @Test
  void acquire_idWithoutRecordBesideALongerLease_waitsTheLongerLeaseTime() throws Exception {
    LeaseCoordinator c = newCoordinator();
    Path ns = Files.createDirectories(dir.resolve(namespace));
    long now = now();
    Files.write(
        ns.resolve("0.lease"),
        record("t0k3n", 30_000, System.currentTimeMillis(), now, now + 30_000).bytes());

    Lease l = c.acquire(new AcquireRequest(namespace, 2, "b", new LeaseTerms(TTL, now, now)));

    assertThat(l.nodeId()).isEqualTo(1);
    assertThat(l.highWaterMillis()).isGreaterThanOrEqualTo(now + 30_000);
    c.close();
  }

  // A holder with ttl=30s whose lease file was deleted may issue for up to 30 s: a newcomer with
  // ttl=1s that finds no record waits those 30 s, not only its own second.
  @Test
  void acquire_recordDeletedUnderAHolderWithALongerTtl_newcomerWaitsThatTtl() throws Exception {
    LeaseCoordinator holder = newCoordinator();
    Duration longer = Duration.ofSeconds(30);
    Lease held =
        holder.acquire(new AcquireRequest(namespace, 1, "h", new LeaseTerms(longer, now(), now())));
    Files.delete(file(held));

    LeaseCoordinator newcomer = newCoordinator();
    long now = now();
    Lease l =
        newcomer.acquire(new AcquireRequest(namespace, 1, "n", new LeaseTerms(TTL, now, now)));

    assertThat(l.highWaterMillis()).isGreaterThanOrEqualTo(now + longer.toMillis());
    newcomer.close();
    holder.close();
  }

  // A start the holder would refuse (its clock behind the id's mark by more than startWait) took
  // the
  // id and released it with its own start as the id's mark: each refused attempt carried a start
  // computed from the namespace's marks on to the id's next taker. It leaves the id's record and
  // the namespace's high-water mark as they were.
  @Test
  void acquire_startBeyondStartWait_refusedLeavingTheIdsRecordAndMarkAsTheyWere() throws Exception {
    LeaseCoordinator c = newCoordinator();
    Lease first = c.acquire(new AcquireRequest(namespace, 1, "a", new LeaseTerms(TTL, now(), 0)));
    long now = now();
    c.release(first, now + 60_000); // a mark a minute ahead of the newcomer's clock
    String record = Files.readString(file(first));
    Path marks = dir.resolve(namespace + "@" + LeaseDirectory.CurrentUser.uid());
    String markBefore = highWaterLine(marks);

    AcquireRequest behind =
        new AcquireRequest(
            namespace,
            1,
            0,
            0,
            "b",
            new LeaseTerms(TTL, now, now),
            LeaseLimits.DEFAULT,
            Duration.ofSeconds(5));
    assertThatThrownBy(() -> c.acquire(behind))
        .isInstanceOfSatisfying(
            StartRefusedException.class,
            e -> {
              assertThat(e.nodeId()).isZero();
              assertThat(e.startAfterMillis()).isEqualTo(now + 60_000);
            });

    assertThat(Files.readString(file(first))).as("the id's record").isEqualTo(record);
    assertThat(highWaterLine(marks)).as("the namespace's high-water mark").isEqualTo(markBefore);
    Lease l =
        c.acquire(
            new AcquireRequest(
                namespace,
                1,
                0,
                0,
                "b",
                new LeaseTerms(TTL, now, now),
                LeaseLimits.DEFAULT,
                Duration.ofMinutes(2)));
    assertThat(l.nodeId()).as("the id, free again").isZero();
    assertThat(l.highWaterMillis()).isEqualTo(now + 60_000);
    c.close();
  }

  // One lease time from the newcomer's own clock is no mark a clock behind shows in: a new id with
  // startWait below the lease time was refused at every attempt, for ever, once a refusal wrote
  // no record (the holder refuses it, and its release leaves the mark the next attempt waits for).
  @Test
  void acquire_newIdWithStartWaitBelowTheLeaseTime_grantedItsOneLeaseTimeWait() {
    LeaseCoordinator c = newCoordinator();
    long now = now();

    Lease l = c.acquire(requestWaitingAtMost(Duration.ZERO, now));

    assertThat(l.highWaterMillis()).isGreaterThanOrEqualTo(now + TTL.toMillis());
    c.close();
  }

  // The namespace's marks move on with every renewal of a live holder: a refusal on them never
  // ended while one renewed, and a startWait below the lease time got no id beside a live holder.
  @Test
  void acquire_startWaitBelowTheLeaseTimeBesideALiveHolder_grantedItsWait() {
    LeaseCoordinator holder = newCoordinator();
    long now = now();
    holder.acquire(new AcquireRequest(namespace, 2, "h", new LeaseTerms(TTL, now, now + 1_500)));

    LeaseCoordinator newcomer = newCoordinator();
    Lease l =
        newcomer.acquire(
            new AcquireRequest(
                namespace,
                2,
                0,
                0,
                "n",
                new LeaseTerms(TTL, now, now),
                LeaseLimits.DEFAULT,
                Duration.ZERO));

    assertThat(l.nodeId()).isEqualTo(1);
    assertThat(l.highWaterMillis()).isGreaterThanOrEqualTo(now + 1_500);
    newcomer.close();
    holder.close();
  }

  @Test
  void acquire_startWaitBeyondWhatMillisecondsCount_takenAsNoBound() {
    LeaseCoordinator c = newCoordinator();
    long now = now();

    Lease l = c.acquire(requestWaitingAtMost(Duration.ofSeconds(Long.MAX_VALUE), now));

    assertThat(l.nodeId()).isZero();
    c.close();
  }

  private AcquireRequest requestWaitingAtMost(Duration startWait, long now) {
    return new AcquireRequest(
        namespace, 1, 0, 0, "n", new LeaseTerms(TTL, now, now), LeaseLimits.DEFAULT, startWait);
  }

  private static String highWaterLine(Path marks) throws IOException {
    return Files.readAllLines(marks).stream()
        .filter(line -> line.startsWith("high-water="))
        .findFirst()
        .orElseThrow();
  }

  private static void deleteTree(Path root) throws IOException {
    try (var paths = Files.walk(root)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  @Override
  protected void crash(LeaseCoordinator coordinator) {
    // closing without release drops the OS locks, as the death of the process would
    coordinator.close();
  }
}
