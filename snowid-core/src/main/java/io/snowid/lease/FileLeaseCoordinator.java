package io.snowid.lease;

import io.snowid.InvalidSettingException;
import io.snowid.node.NodeIdUnavailableException;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Leases on one host through lease files: {@code DIR/<namespace>/<id>.lease}, each locked by its
 * holder and holding a {@link LeaseRecord} that names the holder and the id's high-water mark.
 *
 * <p>An id is free when its file's OS lock is free <em>and</em> its record does not name a holder
 * that may still be alive: released, or a holder process that is provably gone (the SIGKILL case:
 * free at once), or a holder whose lease expired (then the newcomer waits one lease time before
 * issuing). An id with no record at all, or a damaged one, is taken with the same wait, because a
 * missing record cannot be told apart from one deleted under a live holder.
 *
 * <p>Every renewal checks that the file at the path is still the file the holder locked and that
 * the record still names it; when not, the renewal fails with {@link LeaseTakenException} and the
 * generator stops at once. So a holder detects a deleted, moved or replaced lease file within one
 * renewal interval, and a newcomer's one-lease-time wait covers that interval. A record damaged
 * under a holder that still holds its lock is rewritten and the lease carries on.
 *
 * <p>Several users of one host share a directory (see LeaseDirectory): a lease file is opened only
 * when it belongs to this user or root, so a record another user wrote (or forged) never decides
 * whether an id is free. Another user's lease files count as held by that user; their records are
 * read, for the namespace's high-water marks only. The facts that bound a newcomer (each user's
 * longest lease time and latest high-water mark) are kept in the lease directory, not in the
 * namespace folder whose owner could delete them (NamespaceMarks).
 *
 * <p>Every lease also holds a host-wide claim of its namespace and id ({@link HostClaims}), taken
 * after its file is locked and before its record is written: an id that a live process of this host
 * holds through another lease directory counts as taken, and a newcomer starts after the high-water
 * marks that earlier holders on other directories recorded in their claims. A renewal whose claim
 * was deleted or replaced fails as one whose lease file was.
 *
 * <p>The coordinator has no clock of its own: it records the holder's.
 */
final class FileLeaseCoordinator implements LeaseCoordinator {
  /*
   * Two guards, because either alone fails in everyday situations.
   *
   * The OS lock excludes other processes while the holder lives and is dropped by the kernel when
   * it dies, even by SIGKILL. But it is tied to the file, not to the path: delete, move or
   * replace the file (rm -rf of the directory, a backup restore, an editor's save) and a newcomer
   * locks a new file at the same path while the holder keeps its lock on the old one. And it is a
   * POSIX record lock, owned by the process: any close of any descriptor of the file inside the
   * holder's process drops it (see ProcessFileClaims).
   *
   * The record closes both holes. It names the holder (a random token per lease, the process by
   * pid + PID namespace + start time, since a pid alone means nothing across containers) and when
   * its lease ends. A newcomer that gets the lock leaves an id alone while the record says a
   * possibly live holder's lease has not expired. The holder checks at every renewal that the path
   * still leads to its file (same device and inode) and that the record is still its own.
   *
   * Every write is one positioned write of a fixed-size record, forced to disk before the call
   * returns: a crash leaves the old record or the new one, and a power cut cannot lose a
   * high-water mark the holder was told is recorded.
   */
  private static final System.Logger LOG = System.getLogger("io.snowid.lease");

  private final Path dir;
  private final HostClaims claims;
  private final Map<String, Held> held = new ConcurrentHashMap<>();

  /**
   * Every lease file held by a coordinator of this class loader, by file key: {@link #list} reads
   * their records from memory, since opening a held file in this process would drop its lock.
   */
  private static final Map<String, Held> HELD_HERE = new ConcurrentHashMap<>();

  /**
   * A locked lease file, the record last written to it and the host-wide claim of its id. Guarded
   * by itself.
   */
  private static final class Held {
    final LockedFile file;
    final Path path;
    final FileChannel channel;
    final HostClaims.Claim claim;
    final LeaseLimits limits;
    LeaseRecord record;

    Held(LockedFile file, HostClaims.Claim claim, LeaseLimits limits, LeaseRecord record) {
      this.file = file;
      this.path = file.path();
      this.channel = file.channel();
      this.claim = claim;
      this.limits = limits;
      this.record = record;
    }
  }

  /** A lease file this call has locked, what its record allows, and the id's host-wide claim. */
  private record Candidate(
      long id,
      LockedFile file,
      LeaseRecord previous,
      boolean mustWait,
      boolean sameInstance,
      HostClaims.Claim claim) {
    /** Without its claim yet. */
    Candidate(
        long id, LockedFile file, LeaseRecord previous, boolean mustWait, boolean sameInstance) {
      this(id, file, previous, mustWait, sameInstance, HostClaims.Claim.NONE);
    }

    /**
     * With the id's claim: an unreadable mark in a claim file means an earlier holder on another
     * lease directory is unknown, so it is waited out as one whose record is lost.
     */
    Candidate withClaim(HostClaims.Claim c) {
      return new Candidate(id, file, previous, mustWait || c.damaged(), sameInstance, c);
    }

    /** Lower is better: the instance's own id, then one free without a wait, then the lowest. */
    int rank() {
      return (sameInstance ? 0 : 2) + (mustWait ? 1 : 0);
    }
  }

  /**
   * @param dir the lease directory, opened ({@link LeaseDirectory#open})
   * @param claims the host-wide claims every lease also takes
   */
  FileLeaseCoordinator(Path dir, HostClaims claims) {
    this.dir = dir;
    this.claims = claims;
  }

  static FileLeaseCoordinator open(String base) {
    return open(base, HostClaims.configured());
  }

  /**
   * {@link #open(String)} with the host-wide claims {@code claims} (for a test, in a place of its
   * own).
   */
  static FileLeaseCoordinator open(String base, HostClaims claims) {
    if (base.indexOf('?') >= 0) {
      throw new InvalidSettingException(
          "node", base, "file:DIR with the options " + LeaseOptions.KEYS + " only");
    }
    String raw = base.substring("file:".length());
    if (raw.startsWith("//")) {
      raw = raw.substring(2);
    }
    if (raw.isBlank()) {
      throw new InvalidSettingException("node", base, "file:DIR with a directory");
    }
    return new FileLeaseCoordinator(LeaseDirectory.open(Paths.get(raw)), claims);
  }

  /**
   * What this acquisition learned of the namespace from every record it could read, held or not: a
   * newcomer that must wait out an unknown holder starts after all of it.
   */
  private static final class NamespaceView {
    long highWater = Long.MIN_VALUE;
    long ttlMillis;

    /** The file that set {@link #highWater}, and its owner's uid. */
    Path highWaterFile;

    int highWaterOwner = -1;

    /** Lease files locked by another process. */
    int held;

    /** Other users' lease files no process holds, which this user cannot take: a description. */
    final List<String> notUsable = new ArrayList<>();

    /** Ids free here but claimed host-wide by a process of another lease directory. */
    int claimedElsewhere;

    /**
     * Whether the namespace had terms and marks but none a holder wrote within its limits: idle, or
     * rolled back (a restored directory).
     */
    boolean marksLost;

    void saw(LeaseRecord r, Path file) {
      sawHighWater(r.highWater(), file, LeaseDirectory.CurrentUser.uid());
      ttlMillis = Math.max(ttlMillis, r.ttlMillis());
    }

    /**
     * Another user's record: its high-water mark only makes a newcomer wait longer, whatever that
     * user wrote; its lease time comes from that user's own records.
     */
    void sawHighWater(long mark, Path file, int owner) {
      if (mark > highWater) {
        highWater = mark;
        highWaterFile = file;
        highWaterOwner = owner;
      }
    }
  }

  @Override
  public Lease acquire(AcquireRequest request) {
    String namespace = request.namespace();
    Path nsDir = LeaseDirectory.namespace(dir, namespace);
    NamespaceView view = new NamespaceView();
    Candidate best = null;
    claims.prepare();
    try {
      long now = System.currentTimeMillis(); // the host's clock, as every record's writtenAt
      NamespaceMarks.Seen marks = NamespaceMarks.readAll(dir, namespace, now);
      if (marks.live() != null && !marks.live().limits().equals(request.limits())) {
        throw NamespaceMarks.refused(
            dir, namespace, marks.liveFile(), marks.live(), request.limits());
      }
      // Files, but none a holder wrote within its limits (idle, or copied back from a backup):
      // a holder may issue under a longer lease time than they say. Recorded, so that newcomers
      // until then wait too, whatever the files say after this write.
      view.marksLost = marks.live() == null && marks.any();
      NamespaceMarks.raise(
          dir,
          namespace,
          request.terms().ttl().toMillis(),
          Long.MIN_VALUE,
          request.limits(),
          view.marksLost ? request.limits().lostUntilMillis(now) : Long.MIN_VALUE,
          now);
      view.ttlMillis = Math.max(marks.ttlMillis(), request.terms().ttl().toMillis());
      TreeSet<Long> existing = existingIds(nsDir);
      existing.removeIf(id -> !request.allows(id));
      for (long id : existing) {
        Candidate c = claimed(probe(nsDir, id, request, view), namespace, view);
        if (c == null) {
          continue;
        }
        if (best == null || c.rank() < best.rank()) {
          abandon(best);
          best = c;
        } else {
          abandon(c);
        }
        if (best.rank() == 0) {
          break;
        }
      }
      for (long id = request.first();
          id >= 0 && (best == null || best.mustWait());
          id = request.next(id)) {
        if (existing.contains(id)) {
          continue;
        }
        if (best != null && best.id() < id) {
          break; // an existing id that needs the same wait, and is lower
        }
        HostClaims.Claim claim = claims.take(namespace, id);
        if (claim == null) {
          view.claimedElsewhere++;
          continue;
        }
        Candidate c;
        try {
          c = create(nsDir, id);
        } catch (IOException | RuntimeException e) {
          claim.release();
          throw e;
        }
        if (c == null) {
          claim.release();
        } else {
          abandon(best);
          best = c.withClaim(claim);
        }
      }
      if (best == null) {
        throw exhausted(namespace, request.count(), view);
      }
      Candidate taken = best;
      best = null;
      return take(taken, request, view);
    } catch (IOException e) {
      throw new NodeIdUnavailableException("lease directory " + nsDir + " failed: " + e);
    } finally {
      abandon(best);
    }
  }

  /**
   * A candidate with its id's host-wide claim; null (the candidate abandoned) if a process of
   * another lease directory of this host holds the claim.
   */
  private Candidate claimed(Candidate c, String namespace, NamespaceView view) {
    if (c == null) {
      return null;
    }
    HostClaims.Claim claim;
    try {
      claim = claims.take(namespace, c.id());
    } catch (RuntimeException e) {
      abandon(c);
      throw e;
    }
    if (claim == null) {
      view.claimedElsewhere++;
      abandon(c);
      return null;
    }
    return c.withClaim(claim);
  }

  /** No id was free: says which were held and which are other users' files nothing holds. */
  private NodeIdsExhaustedException exhausted(String namespace, long size, NamespaceView view) {
    String where = "in " + dir + claimedElsewhere(view);
    if (view.notUsable.isEmpty()) {
      return new NodeIdsExhaustedException(namespace, size, where);
    }
    return new NodeIdsExhaustedException(
        namespace,
        size,
        where
            + " are taken: "
            + view.held
            + " held by running processes, "
            + view.notUsable.size()
            + " lease files of other users that no process holds but this user (uid "
            + LeaseDirectory.CurrentUser.uid()
            + ") cannot take ("
            + String.join(", ", view.notUsable.subList(0, Math.min(3, view.notUsable.size())))
            + (view.notUsable.size() > 3 ? ", …" : "")
            + "); if no process of those users runs snowid, remove those files as root",
        true);
  }

  private String claimedElsewhere(NamespaceView view) {
    if (view.claimedElsewhere == 0) {
      return "";
    }
    return " ("
        + view.claimedElsewhere
        + " of them free here but held by processes of other lease directories of this host,"
        + " claimed host-wide in "
        + claims.place()
        + ": one lease directory per host)";
  }

  private static TreeSet<Long> existingIds(Path nsDir) throws IOException {
    TreeSet<Long> ids = new TreeSet<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(nsDir, "*.lease")) {
      for (Path f : files) {
        String name = f.getFileName().toString();
        String digits = name.substring(0, name.length() - ".lease".length());
        if (digits.matches("0|[1-9][0-9]{0,18}")) {
          long id = Long.parseLong(digits);
          ids.add(id);
        }
      }
    }
    return ids;
  }

  /** Locks an existing lease file and judges its record; null if the id is not free. */
  private Candidate probe(Path nsDir, long id, AcquireRequest request, NamespaceView view)
      throws IOException {
    Path path = nsDir.resolve(id + ".lease");
    BasicFileAttributes before;
    try {
      before = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return null;
    }
    if (!before.isRegularFile()) {
      LOG.log(Level.WARNING, "skipping node id {0}: {1} is not a regular file", str(id), path);
      return null;
    }
    String key = LockedFile.keyOf(before, path);
    if (!isOwn(path)) {
      seeForeign(path, key, view); // another user's: held by that user, whatever it says
      return null;
    }
    if (!ProcessFileClaims.claim(key, path.toString())) {
      return null; // held or being probed in this JVM: opening it could drop the lock
    }
    FileChannel ch;
    try {
      ch =
          FileChannel.open(
              path, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException | AccessDeniedException e) {
      ProcessFileClaims.release(key, path.toString());
      return null;
    } catch (IOException e) {
      ProcessFileClaims.release(key, path.toString());
      throw e;
    }
    return lockAndJudge(ch, path, key, id, request, view);
  }

  /**
   * Creates the lease file of an id that has none, locked before it appears at its path: a
   * temporary file is created, locked and then linked to the path, which fails if the path exists.
   * So the file this call locks is the file at the path, with no moment in between. Null if another
   * process won.
   */
  private static Candidate create(Path nsDir, long id) throws IOException {
    Path path = nsDir.resolve(id + ".lease");
    Path temp = nsDir.resolve("." + id + "." + UUID.randomUUID() + ".new");
    LockedFile f =
        temp.getFileSystem().supportedFileAttributeViews().contains("posix")
            ? LockedFile.create(
                path,
                temp,
                t -> {},
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")))
            : LockedFile.create(path, temp, t -> {});
    // null: created meanwhile by another process, which the next call probes
    return f == null ? null : new Candidate(id, f, null, true, false);
  }

  private Candidate lockAndJudge(
      FileChannel ch, Path path, String key, long id, AcquireRequest request, NamespaceView view)
      throws IOException {
    boolean keep = false;
    try {
      LockedFile f = LockedFile.tryLock(ch, path, key);
      if (f == null) {
        keep = true; // quarantined: never closed
        return null;
      }
      if (f.lock() == null) {
        seeHeld(
            ch, path, view); // held by another process: its record still bounds a newcomer's start
        return null;
      }
      Candidate c = judge(f, id, request, view);
      if (c == null) {
        f.lock().release();
        return null;
      }
      keep = true;
      return c;
    } finally {
      if (!keep) {
        try {
          ch.close();
        } finally {
          ProcessFileClaims.release(key, path.toString());
        }
      }
    }
  }

  /** Whether a file belongs to this user or root (always, without POSIX owners). */
  private static boolean isOwn(Path path) throws IOException {
    if (!UnixAttributes.supported(path)) {
      return true;
    }
    int uid = UnixAttributes.uid(path);
    return uid == 0 || uid == LeaseDirectory.CurrentUser.uid();
  }

  /**
   * Reads the record of another user's lease file, read-only, for the namespace's high-water mark
   * (a newcomer that must wait starts after it). Never locked, so closing it drops no lock of this
   * process; claimed meanwhile, so no other copy of snowid in this JVM holds it open.
   */
  private static void seeForeign(Path path, String key, NamespaceView view) throws IOException {
    if (!ProcessFileClaims.claim(key, path.toString())) {
      return;
    }
    int owner = owner(path);
    try (FileChannel ch =
        FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      // A holder locks its file exclusively; a shared lock granted here means no process holds it.
      // Taken only to tell the two apart in a message, and dropped by the close below.
      FileLock probe;
      try {
        probe = ch.tryLock(0, Long.MAX_VALUE, true);
      } catch (OverlappingFileLockException e) {
        probe = null;
      }
      if (probe == null) {
        view.held++;
      } else {
        view.notUsable.add(describeForeign(path, owner));
      }
      LeaseRecord r = read(ch);
      if (r != null && !r.isNewer()) {
        view.sawHighWater(r.highWater(), path, owner);
      }
    } catch (AccessDeniedException e) {
      view.notUsable.add(describeForeign(path, owner));
    } catch (NoSuchFileException | LeaseRecord.DamagedException e) {
      // gone or damaged: nothing to learn from it
    } finally {
      ProcessFileClaims.release(key, path.toString());
    }
  }

  /** Reads the record of a file another process holds, for its high-water mark and lease time. */
  private static void seeHeld(FileChannel ch, Path path, NamespaceView view) throws IOException {
    view.held++;
    try {
      LeaseRecord r = read(ch);
      if (r != null) {
        view.saw(r, path);
      }
    } catch (LeaseRecord.DamagedException e) {
      // being written, or damaged: its holder rewrites it; nothing to learn from it
    }
  }

  private static String describeForeign(Path path, int owner) {
    String mode;
    try {
      mode =
          String.format(
              "%04o",
              (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 07777);
    } catch (IOException | RuntimeException e) {
      mode = "unknown";
    }
    return path + " owned by " + UnixAttributes.ownerName(owner) + ", mode " + mode;
  }

  /** The owner's uid of a file; -1 if unknown. */
  private static int owner(Path path) {
    try {
      return UnixAttributes.uid(path);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** Decides, for a file this call has locked, whether its record lets the id be taken. */
  private static Candidate judge(LockedFile f, long id, AcquireRequest request, NamespaceView view)
      throws IOException {
    Path path = f.path();
    long now = request.terms().localNowMillis();
    LeaseRecord r;
    try {
      r = read(f.channel());
    } catch (LeaseRecord.DamagedException e) {
      LOG.log(
          Level.WARNING,
          "node id {0}: lease record {1} is damaged ({2}); taking it over after one lease time",
          str(id),
          path,
          e.getMessage());
      return new Candidate(id, f, null, true, false);
    }
    if (r == null) {
      return new Candidate(id, f, null, true, false);
    }
    if (r.isNewer()) {
      LOG.log(
          Level.WARNING,
          "node id {0} counts as taken: {1} was written by a newer snowid (record version {2},"
              + " this one reads up to {3})",
          str(id),
          path,
          str(r.version()),
          str(LeaseRecord.VERSION));
      return null;
    }
    view.saw(r, path);
    boolean mine = request.instance().equals(r.instance());
    HolderProcess.Liveness holder = HolderProcess.ofHolder(r);
    boolean expired = now > r.expiresAt();
    if (!r.isReleased() && holder == HolderProcess.Liveness.ALIVE && !expired) {
      LOG.log(
          Level.WARNING,
          "node id {0} counts as taken: {1} names a live holder (pid {2}, instance {3}) whose"
              + " lease has not expired, but the file is not locked: it was replaced, or something"
              + " inside that process opened and closed it, which drops the lock",
          str(id),
          path,
          str(r.pid()),
          r.instance());
      return null;
    }
    if (!writtenBySnowid(path, r)) {
      // Copied, restored or moved here by something else: what it says may be stale (a backup
      // of a released record under a running holder). Wait out whoever may hold the id.
      return new Candidate(id, f, r, true, mine);
    }
    if (r.isReleased() || holder == HolderProcess.Liveness.DEAD) {
      return new Candidate(id, f, r, false, mine);
    }
    if (expired) {
      // A holder that may be alive but stopped renewing: it fenced itself at its deadline. Wait
      // one lease time, so that if it is alive and renews after all, one of the two sees the
      // other's token before either issues an ID under the same node id.
      return new Candidate(id, f, r, true, mine);
    }
    return null;
  }

  /** How late the file's change time may be after the record's own time: a slow disk's write. */
  private static final long WRITE_SLACK_MILLIS = 1_000;

  /**
   * Whether the file at the path is as snowid last wrote it: its change time (set by the kernel at
   * every write, rename, copy or permission change, and impossible to set back) is not later than
   * the time written in the record. Unknown on a file system without it: then assumed not.
   */
  private static boolean writtenBySnowid(Path path, LeaseRecord r) throws IOException {
    if (r.writtenAt() < 0 || !UnixAttributes.supported(path)) {
      return false;
    }
    return UnixAttributes.changedMillis(path) <= r.writtenAt() + WRITE_SLACK_MILLIS;
  }

  /** Takes the chosen candidate; on any failure it is abandoned (lock dropped, claim given up). */
  private Lease take(Candidate c, AcquireRequest request, NamespaceView view) throws IOException {
    try {
      return takeOrThrow(c, request, view);
    } catch (IOException | RuntimeException e) {
      abandon(c);
      throw e;
    }
  }

  private Lease takeOrThrow(Candidate c, AcquireRequest request, NamespaceView view)
      throws IOException {
    LeaseTerms terms = request.terms();
    long now = terms.localNowMillis();
    // After the id's last holder here, and after every earlier holder of the same node values on
    // another lease directory of this host, as their claim files recorded.
    HostClaims.Claim claim = c.claim();
    view.ttlMillis = Math.max(view.ttlMillis, claim.ttlMillis());
    long previous =
        Math.max(
            c.previous() == null ? Long.MIN_VALUE : c.previous().highWater(), claim.highWater());
    refuseForeignFuture(
        request,
        now,
        Math.max(terms.ttl().toMillis(), view.ttlMillis),
        c,
        claim.highWater(),
        claim.highWaterFile(),
        claim.highWaterOwner());
    long startAfter = previous;
    if (c.mustWait()) {
      // After whoever may hold the id: one lease time (the longest any record of the namespace
      // names), and after every high-water mark of the namespace, since a holder whose record was
      // lost may run on a clock as far ahead as any other holder's. The marks of the lease
      // directory are read now, with the id's file locked at its path: a holder that renews
      // after this read sees that its file was replaced and stops.
      NamespaceMarks.Seen marks =
          NamespaceMarks.readAll(dir, request.namespace(), System.currentTimeMillis());
      view.ttlMillis = Math.max(view.ttlMillis, marks.ttlMillis());
      view.sawHighWater(marks.highWater(), marks.highWaterFile(), marks.highWaterOwner());
      long wait = Math.max(terms.ttl().toMillis(), view.ttlMillis);
      if (view.marksLost) {
        // the marks may be older than some holder's: wait what the limits allow any holder
        wait = Math.max(wait, request.limits().maxTtl().toMillis());
      }

      refuseForeignFuture(
          request, now, wait, c, view.highWater, view.highWaterFile, view.highWaterOwner);
      startAfter =
          Math.max(
              Math.max(previous, view.highWater),
              Math.max(saturatedAdd(now, wait), marks.lostUntil()));
    }
    String token = UUID.randomUUID().toString();
    LeaseRecord record =
        new LeaseRecord(
            LeaseRecord.VERSION,
            request.instance(),
            token,
            HolderProcess.host(),
            HolderProcess.bootId(),
            HolderProcess.pid(),
            HolderProcess.pidNamespace(),
            HolderProcess.startTicks(),
            terms.ttl().toMillis(),
            System.currentTimeMillis(),
            startAfter,
            Math.max(startAfter, terms.mayIssueUntilMillis()),
            terms.expiresAtMillis());
    NamespaceMarks.raise(
        dir,
        request.namespace(),
        record.ttlMillis(),
        record.highWater(),
        request.limits(),
        Long.MIN_VALUE,
        record.writtenAt());
    write(c.file().channel(), record);
    claim.record(record.highWater(), record.ttlMillis());
    ProcessFileClaims.liveToken(token, c.file().path().toString());
    Held h = new Held(c.file(), claim, request.limits(), record);
    held.put(token, h);
    HELD_HERE.put(c.file().key(), h);
    return new Lease(
        request.namespace(),
        c.id(),
        request.instance(),
        token,
        now,
        terms.expiresAtMillis(),
        startAfter);
  }

  private static long saturatedAdd(long a, long b) {
    long r = a + b;
    return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
  }

  /** How far past a newcomer's wait a high-water mark of this host may lie: a slow disk's write. */
  private static final long FUTURE_SLACK_MILLIS = 1_000;

  /*
   * A holder on this host records high-water marks on this host's clock, at most its lease time
   * after its own now, and a newcomer's wait is at least the longest lease time any holder
   * recorded. So a mark beyond the newcomer's now plus its wait was written on a clock that ran
   * ahead (faketime, a clock set back since) or forged by hand. Starting after it would still be
   * safe, but a generator would then refuse with a message blaming the node id, which never was
   * used so far: another user's file (a lease file, namespace marks, or a host-wide claim of the
   * id) deserves a message naming it, its owner and the fix. Still a refusal: which marks are false
   * cannot be told, and a true one is a duplicate if ignored.
   */
  private void refuseForeignFuture(
      AcquireRequest request,
      long now,
      long wait,
      Candidate c,
      long highWater,
      Path highWaterFile,
      int highWaterOwner) {
    if (highWaterFile == null
        || highWaterOwner == LeaseDirectory.CurrentUser.uid()
        || highWater <= saturatedAdd(saturatedAdd(now, wait), FUTURE_SLACK_MILLIS)) {
      return;
    }
    String owner = highWaterOwner == 0 ? "root" : "uid " + Integer.toUnsignedString(highWaterOwner);
    throw new NodeIdUnavailableException(
        "node id "
            + c.id()
            + " of namespace "
            + request.namespace()
            + " in "
            + describe()
            + " cannot start: "
            + highWaterFile
            + " (owned by "
            + owner
            + ") records a high-water mark of "
            + java.time.Instant.ofEpochMilli(highWater)
            + ", "
            + (highWater - now)
            + " ms after this clock, beyond any lease time recorded ("
            + wait
            + " ms): a process of "
            + owner
            + " ran with its clock ahead, or the file was forged; if no process of "
            + owner
            + " runs snowid with its clock ahead, remove "
            + highWaterFile
            + " as root or as its owner");
  }

  /** Numbers for log messages, which MessageFormat would group ("28,667"). */
  private static String str(long n) {
    return Long.toString(n);
  }

  /** Closes a candidate that is not taken (dropping its lock) and gives up its claim. */
  private static void abandon(Candidate c) {
    if (c == null) {
      return;
    }
    try {
      c.file().close();
    } finally {
      c.claim().release();
    }
  }

  @Override
  public Lease renew(Lease lease, LeaseTerms terms) {
    Held h = held.get(lease.token());
    if (h == null) {
      throw new LeaseTakenException(lease.namespace(), lease.nodeId(), "released");
    }
    synchronized (h) {
      try {
        String lost = lostBecause(h);
        if (lost == null) {
          LeaseRecord onDisk = readOwn(h);
          if (onDisk != null && !onDisk.token().equals(lease.token())) {
            lost =
                "lease file "
                    + h.path
                    + " names another holder (instance "
                    + onDisk.instance()
                    + ", pid "
                    + onDisk.pid()
                    + ")";
          }
        }
        if (lost == null) {
          LeaseRecord next =
              h.record.renewed(
                  Math.max(h.record.highWater(), terms.mayIssueUntilMillis()),
                  terms.expiresAtMillis(),
                  System.currentTimeMillis());
          NamespaceMarks.raise(
              dir,
              lease.namespace(),
              next.ttlMillis(),
              next.highWater(),
              h.limits,
              Long.MIN_VALUE,
              next.writtenAt());
          write(h.channel, next);
          h.claim.record(next.highWater(), next.ttlMillis());
          h.record = next;
          lost = lostBecause(h); // replaced while this write went to the old file
        }
        if (lost != null) {
          LOG.log(
              Level.WARNING, "snowid lease of node id {0} lost: {1}", str(lease.nodeId()), lost);
          drop(lease.token(), h);
          throw new LeaseTakenException(lease.namespace(), lease.nodeId(), lost);
        }
      } catch (IOException e) {
        throw new NodeIdUnavailableException("cannot write " + h.path + ": " + e);
      }
      return new Lease(
          lease.namespace(),
          lease.nodeId(),
          lease.instance(),
          lease.token(),
          terms.localNowMillis(),
          terms.expiresAtMillis(),
          lease.highWaterMillis());
    }
  }

  /**
   * Why the file at the path is no longer the one this holder locked, or its host-wide claim is no
   * longer its own; null if both still are.
   */
  private static String lostBecause(Held h) throws IOException {
    String lease = leaseLostBecause(h);
    return lease != null ? lease : h.claim.lostBecause();
  }

  private static String leaseLostBecause(Held h) throws IOException {
    if (!h.file.lock().isValid()) {
      return "its lock was released";
    }
    BasicFileAttributes now;
    try {
      now = Files.readAttributes(h.path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return Files.isDirectory(h.path.getParent())
          ? "lease file " + h.path + " was deleted"
          : "lease directory " + h.path.getParent() + " was deleted";
    }
    if (!LockedFile.keyOf(now, h.path).equals(h.file.key())) {
      return "lease file " + h.path + " was replaced by another file";
    }
    return null;
  }

  /** The record in the held file; a damaged one is logged and will be rewritten (null). */
  private static LeaseRecord readOwn(Held h) throws IOException {
    try {
      LeaseRecord r = read(h.channel);
      if (r == null) {
        LOG.log(Level.WARNING, "lease file {0} was emptied; rewriting it", h.path);
      }
      return r;
    } catch (LeaseRecord.DamagedException e) {
      LOG.log(
          Level.WARNING,
          "lease file {0} was damaged ({1}); this holder still holds its lock and rewrites it",
          h.path,
          e.getMessage());
      return null;
    }
  }

  private void drop(String token, Held h) {
    held.remove(token, h);
    HELD_HERE.remove(h.file.key(), h);
    ProcessFileClaims.endToken(token);
    try {
      h.file.close();
    } finally {
      h.claim.release();
    }
  }

  @Override
  public void release(Lease lease, long issuedUpToMillis) {
    Held h = held.get(lease.token());
    if (h == null) {
      return;
    }
    synchronized (h) {
      try {
        if (lostBecause(h) == null) {
          LeaseRecord onDisk = readOwn(h);
          if (onDisk == null || onDisk.token().equals(lease.token())) {
            // A holder that releases is fenced and knows exactly what it issued: that replaces its
            // own promises, so a graceful restart does not wait out the promised deadline.
            LeaseRecord released =
                h.record.released(
                    Math.max(h.record.base(), issuedUpToMillis), System.currentTimeMillis());
            write(h.channel, released);
            h.claim.record(released.highWater(), released.ttlMillis());
          }
        }
      } catch (IOException e) {
        throw new NodeIdUnavailableException("cannot write " + h.path + ": " + e);
      } finally {
        drop(lease.token(), h);
      }
    }
  }

  // ---- for operators: namespaces, list and releaseAbandoned ----

  /** The namespace folders of the lease directory, sorted; nothing is created. */
  @Override
  public List<String> namespaces() {
    List<String> out = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path p : entries) {
        String name = p.getFileName().toString();
        if (LeaseNames.isListed(name) && Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
          out.add(name);
        }
      }
    } catch (IOException e) {
      throw new NodeIdUnavailableException("lease directory " + dir + " cannot be listed: " + e);
    }
    Collections.sort(out);
    return out;
  }

  @Override
  public LeaseListing list(String namespace) {
    long now = System.currentTimeMillis();
    Path nsDir = existingNamespace(namespace);
    if (nsDir == null) {
      return new LeaseListing(now, List.of());
    }
    List<LeaseInfo> out = new ArrayList<>();
    try {
      for (long id : existingIds(nsDir)) {
        LeaseInfo info = inspect(namespace, nsDir.resolve(id + ".lease"), id, now);
        if (info != null) {
          out.add(info);
        }
      }
    } catch (IOException e) {
      throw new NodeIdUnavailableException("lease directory " + nsDir + " failed: " + e);
    }
    NamespaceMarks.Marks newest =
        NamespaceMarks.readAll(dir, namespace, System.currentTimeMillis()).newest();
    return new LeaseListing(
        now,
        out,
        newest == null
            ? Optional.empty()
            : Optional.of(
                new NamespaceState(newest.limits(), newest.writtenMillis(), Long.MIN_VALUE)));
  }

  /** The namespace folder, checked, if it exists; null if not (nothing is created). */
  private Path existingNamespace(String namespace) {
    if (!LeaseNames.isFolderName(dir, namespace)) {
      throw new InvalidSettingException(
          "namespace",
          namespace,
          "a folder name of " + LeaseNames.CHARACTERS + " other than . and ..");
    }
    if (!Files.isDirectory(dir.resolve(namespace), LinkOption.NOFOLLOW_LINKS)) {
      return null;
    }
    return LeaseDirectory.namespace(dir, namespace); // exists: checked, not created
  }

  /**
   * One lease file's state, without changing it: held in this JVM (from memory), locked by another
   * process, or judged by its record as an acquirer would. Null for a file with no readable record
   * (being created, emptied or damaged: the next acquirer takes it after one lease time).
   */
  private static LeaseInfo inspect(String namespace, Path path, long id, long now)
      throws IOException {
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return null;
    }
    if (!a.isRegularFile()) {
      return null;
    }
    String key = LockedFile.keyOf(a, path);
    Held h = HELD_HERE.get(key);
    if (h != null) {
      synchronized (h) {
        return info(namespace, id, h.record, LeaseInfo.State.HELD);
      }
    }
    if (!ProcessFileClaims.claim(key, path.toString())) {
      // held (or being probed) by another copy of snowid in this JVM: opening it could drop its
      // lock, and its record is not ours to read from memory
      return heldByAnotherCopy(namespace, id);
    }
    try (FileChannel ch =
        FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      LeaseRecord r;
      boolean locked;
      // a shared lock for a moment: refused while a holder has its exclusive one
      try (FileLock probe = ch.tryLock(0, Long.MAX_VALUE, true)) {
        locked = probe == null;
        r = read(ch);
      } catch (LeaseRecord.DamagedException e) {
        return null;
      } catch (OverlappingFileLockException e) {
        return heldByAnotherCopy(namespace, id); // locked in this JVM by code that does not claim
      }
      if (r == null) {
        return null;
      }
      return info(namespace, id, r, locked ? LeaseInfo.State.HELD : stateOf(r, now));
    } catch (NoSuchFileException | AccessDeniedException e) {
      return null;
    } finally {
      ProcessFileClaims.release(key, path.toString());
    }
  }

  /** An id held in this JVM by a copy of snowid whose record cannot be read: expiry unknown. */
  private static LeaseInfo heldByAnotherCopy(String namespace, long id) {
    return new LeaseInfo(
        namespace,
        id,
        "(another copy of snowid in this process)",
        HolderProcess.host(),
        LeaseInfo.State.HELD,
        Long.MAX_VALUE,
        Long.MIN_VALUE);
  }

  /** The state of a record whose file no one has locked, as an acquirer would judge it. */
  private static LeaseInfo.State stateOf(LeaseRecord r, long now) {
    if (r.isReleased()) {
      return LeaseInfo.State.RELEASED;
    }
    return isGone(r, now) ? LeaseInfo.State.EXPIRED : LeaseInfo.State.HELD;
  }

  /** Whether the holder a record names can no longer issue: provably gone, or its lease expired. */
  private static boolean isGone(LeaseRecord r, long now) {
    return HolderProcess.ofHolder(r) == HolderProcess.Liveness.DEAD || now > r.expiresAt();
  }

  private static LeaseInfo info(String namespace, long id, LeaseRecord r, LeaseInfo.State state) {
    return new LeaseInfo(
        namespace,
        id,
        r.instance(),
        r.host(),
        state,
        r.isReleased() ? Long.MIN_VALUE : r.expiresAt(),
        r.highWater());
  }

  @Override
  public void releaseAbandoned(String namespace, long nodeId) {
    Path nsDir = existingNamespace(namespace);
    if (nsDir == null || nodeId < 0) {
      return;
    }
    Path path = nsDir.resolve(nodeId + ".lease");
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return;
    } catch (IOException e) {
      throw new NodeIdUnavailableException("cannot read " + path + ": " + e);
    }
    if (!a.isRegularFile()) {
      return;
    }
    String key = LockedFile.keyOf(a, path);
    Held mine = HELD_HERE.get(key);
    if (mine != null) {
      synchronized (mine) {
        throw new LeaseTakenException(
            namespace, nodeId, "held by this process: " + who(mine.record));
      }
    }
    if (!ProcessFileClaims.claim(key, path.toString())) {
      throw new LeaseTakenException(
          namespace, nodeId, "held by another copy of snowid in this process");
    }
    FileChannel ch = null;
    try {
      ch =
          FileChannel.open(
              path, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
      releaseIfGone(namespace, nodeId, path, ch);
    } catch (NoSuchFileException e) {
      // gone meanwhile: nothing to release
    } catch (IOException e) {
      throw new NodeIdUnavailableException("cannot release " + path + ": " + e);
    } finally {
      try {
        if (ch != null) {
          ch.close();
        }
      } catch (IOException e) {
        // closing drops the lock; nothing else to do
      } finally {
        ProcessFileClaims.release(key, path.toString());
      }
    }
  }

  /** With the file open: takes its lock, and writes it released if its holder is gone. */
  private static void releaseIfGone(String namespace, long nodeId, Path path, FileChannel ch)
      throws IOException {
    FileLock taken;
    try {
      taken = ch.tryLock();
    } catch (OverlappingFileLockException e) {
      throw new LeaseTakenException(namespace, nodeId, "its lease file is locked in this process");
    }
    try (FileLock lock = taken) {
      if (lock == null) {
        LeaseRecord r = readQuietly(ch);
        throw new LeaseTakenException(
            namespace,
            nodeId,
            "its lease file is locked by a live process" + (r == null ? "" : ": " + who(r)));
      }
      LeaseRecord r = readQuietly(ch);
      long now = System.currentTimeMillis();
      if (r == null || r.isReleased()) {
        return; // nothing to keep, or released already: the next acquirer knows what to do
      }
      if (!isGone(r, now)) {
        throw new LeaseTakenException(
            namespace, nodeId, "its record names a holder that may be alive: " + who(r));
      }
      if (!writtenBySnowid(path, r)) {
        throw new LeaseTakenException(
            namespace,
            nodeId,
            "its lease file was changed by something other than snowid since its holder wrote it"
                + " (a copy, a restore, a move), so the holder it names cannot be proven gone; the"
                + " next holder takes the id after one lease time");
      }
      write(ch, r.released(r.highWater(), now));
      LOG.log(
          Level.INFO,
          "node id {0} of namespace {1} released by an operator: its holder is gone ({2}); its"
              + " high-water mark {3} is kept",
          str(nodeId),
          namespace,
          who(r),
          Instant.ofEpochMilli(r.highWater()));
    }
  }

  private static LeaseRecord readQuietly(FileChannel ch) throws IOException {
    try {
      return read(ch);
    } catch (LeaseRecord.DamagedException e) {
      return null;
    }
  }

  /** The holder a record names, and until when its lease runs, for messages. */
  private static String who(LeaseRecord r) {
    return "instance "
        + r.instance()
        + " (host "
        + r.host()
        + ", pid "
        + r.pid()
        + "), lease until "
        + Instant.ofEpochMilli(r.expiresAt());
  }

  /**
   * Reads a record; null for an empty file (an id with no history).
   *
   * @throws LeaseRecord.DamagedException if the record is damaged
   */
  private static LeaseRecord read(FileChannel ch) throws IOException, LeaseRecord.DamagedException {
    ByteBuffer buf = ByteBuffer.allocate((int) Math.min(ch.size(), 4096));
    while (buf.hasRemaining()) {
      if (ch.read(buf, buf.position()) < 0) {
        break;
      }
    }
    return LeaseRecord.parse(buf.array(), buf.position());
  }

  private static void write(FileChannel ch, LeaseRecord r) throws IOException {
    ByteBuffer buf = ByteBuffer.wrap(r.bytes());
    while (buf.hasRemaining()) {
      ch.write(buf, buf.position());
    }
    if (ch.size() > LeaseRecord.SIZE) {
      ch.truncate(LeaseRecord.SIZE); // a longer file is damaged: its tail goes, after the record
    }
    ch.force(true);
  }

  /** No: the records carry the holders' own clocks, so there is no skew to check. */
  @Override
  public boolean hasOwnClock() {
    return false;
  }

  @Override
  public String describe() {
    return "file:" + dir;
  }

  @Override
  public void close() {
    for (Map.Entry<String, Held> e : List.copyOf(held.entrySet())) {
      synchronized (e.getValue()) {
        drop(e.getKey(), e.getValue());
      }
    }
  }
}
