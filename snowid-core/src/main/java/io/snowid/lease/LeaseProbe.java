package io.snowid.lease;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Whether an acquisition may take an id, as its lease file says: an existing file is locked and its
 * record judged ({@link #judge}: the rules), an id without a file gets one, created locked. What
 * can be read of a file that cannot be taken (held by another process, or another user's) goes to
 * the acquisition's {@link NamespaceView}.
 *
 * <p>An id is free when its file's OS lock is free <em>and</em> its record does not name a holder
 * that may still be alive: released, or a holder process that is provably gone (free at once), or
 * one whose lease expired (then the newcomer waits one lease time before issuing). An id with no
 * record, or a damaged one, is taken with the same wait: a missing record cannot be told apart from
 * one deleted under a live holder. Another user's lease file is never opened for writing: it counts
 * as held by that user, and its record is read for the high-water mark only (docs/design.md, "The
 * {@code file:} backend").
 */
final class LeaseProbe {
  private static final System.Logger LOG = System.getLogger("io.snowid.lease");

  private LeaseProbe() {}

  /** Locks an existing lease file and judges its record; null if the id is not free. */
  static LeaseCandidate probe(Path nsDir, long id, AcquireRequest request, NamespaceView view)
      throws IOException {
    Path path = LeaseFiles.path(nsDir, id);
    BasicFileAttributes before;
    try {
      before = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return null;
    }
    if (!before.isRegularFile()) {
      LOG.log(
          Level.WARNING,
          "skipping node id {0}: {1} is not a regular file",
          LeaseFiles.str(id),
          path);
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
   * Creates the lease file of an id that has none, locked ({@link LeaseFiles#create}); null if
   * another process created it meanwhile, which the next acquisition probes.
   */
  static LeaseCandidate create(Path nsDir, long id) throws IOException {
    LockedFile f = LeaseFiles.create(nsDir, id);
    return f == null ? null : new LeaseCandidate(id, f, null, true, false);
  }

  private static LeaseCandidate lockAndJudge(
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
      LeaseCandidate c = judge(f, id, request, view);
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
      LeaseRecord r = LeaseFiles.read(ch);
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
      LeaseRecord r = LeaseFiles.read(ch);
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
  private static LeaseCandidate judge(
      LockedFile f, long id, AcquireRequest request, NamespaceView view) throws IOException {
    Path path = f.path();
    long now = request.terms().localNowMillis();
    LeaseRecord r;
    try {
      r = LeaseFiles.read(f.channel());
    } catch (LeaseRecord.DamagedException e) {
      LOG.log(
          Level.WARNING,
          "node id {0}: lease record {1} is damaged ({2}); taking it over after one lease time",
          LeaseFiles.str(id),
          path,
          e.getMessage());
      return new LeaseCandidate(id, f, null, true, false);
    }
    if (r == null) {
      return new LeaseCandidate(id, f, null, true, false);
    }
    if (r.isNewer()) {
      LOG.log(
          Level.WARNING,
          "node id {0} counts as taken: {1} was written by a newer snowid (record version {2},"
              + " this one reads up to {3})",
          LeaseFiles.str(id),
          path,
          LeaseFiles.str(r.version()),
          LeaseFiles.str(LeaseRecord.VERSION));
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
          LeaseFiles.str(id),
          path,
          LeaseFiles.str(r.pid()),
          r.instance());
      return null;
    }
    if (!LeaseFiles.writtenBySnowid(path, r)) {
      // Copied, restored or moved here by something else: what it says may be stale (a backup
      // of a released record under a running holder). Wait out whoever may hold the id.
      return new LeaseCandidate(id, f, r, true, mine);
    }
    if (r.isReleased() || holder == HolderProcess.Liveness.DEAD) {
      return new LeaseCandidate(id, f, r, false, mine);
    }
    if (expired) {
      // A holder that may be alive but stopped renewing: it fenced itself at its deadline. Wait
      // one lease time, so that if it is alive and renews after all, one of the two sees the
      // other's token before either issues an ID under the same node id.
      return new LeaseCandidate(id, f, r, true, mine);
    }
    return null;
  }
}
