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
import java.util.UUID;

/**
 * The host-wide claim files ({@link HostClaims}): this user's locked, created if missing, and
 * another user's tested with a momentary shared lock. A file this JVM holds is never opened a
 * second time: claim files go through {@link ProcessFileClaims} and {@link LockedFile}, as lease
 * files do.
 */
final class ClaimFiles {
  private static final System.Logger LOG = System.getLogger("io.snowid.lease");
  private static final int MAX_ATTEMPTS = 3;

  private ClaimFiles() {}

  /** Locks this user's claim file, creating it if missing; null if it is held or unusable. */
  static HostClaim lockOwn(Path own) throws IOException {
    for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      BasicFileAttributes a;
      try {
        a = Files.readAttributes(own, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      } catch (NoSuchFileException e) {
        HostClaim created = createLocked(own);
        if (created != null) {
          return created;
        }
        continue; // created meanwhile by another process: locked like any existing one
      }
      if (!a.isRegularFile() || owner(own) != Integer.toUnsignedLong(uid())) {
        LOG.log(
            Level.WARNING,
            "node id counts as taken: the host-wide claim file {0} is not a regular file of this"
                + " user (uid {1}); remove it as root",
            own,
            Long.toString(Integer.toUnsignedLong(uid())));
        return null;
      }
      String key = LockedFile.keyOf(a, own);
      if (!ProcessFileClaims.claim(key, own.toString())) {
        return null; // held (or being claimed) in this JVM
      }
      FileChannel ch;
      try {
        ch =
            FileChannel.open(
                own, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
      } catch (NoSuchFileException gone) {
        ProcessFileClaims.release(key, own.toString());
        continue;
      } catch (IOException e) {
        ProcessFileClaims.release(key, own.toString());
        throw e;
      }
      LockedFile f = LockedFile.tryLock(ch, own, key);
      if (f == null) {
        return null; // quarantined: never closed
      }
      if (f.lock() == null) {
        f.close(); // held by another process of this user
        return null;
      }
      return new HostClaim(f);
    }
    return null;
  }

  /**
   * Creates this user's claim file locked before it appears at its path (a temporary file, locked,
   * then linked to the path); null if another process created it meanwhile.
   */
  private static HostClaim createLocked(Path own) throws IOException {
    Path temp = own.resolveSibling("." + own.getFileName() + "." + UUID.randomUUID() + ".new");
    LockedFile f =
        LockedFile.create(
            own,
            temp,
            t -> {
              if (UnixAttributes.supported(t)) {
                // readable by every user, who test it with a shared lock; not narrowed by the umask
                Files.setAttribute(t, "unix:mode", 0644, LinkOption.NOFOLLOW_LINKS);
              }
            });
    return f == null ? null : new HostClaim(f);
  }

  /**
   * Whether another user's claim file is locked by a process, tested with a momentary shared lock;
   * if not, its high-water mark goes to {@code c} (null: only tested).
   */
  static boolean isHeld(Path f, String key, long uid, HostClaim c) throws IOException {
    if (!ProcessFileClaims.claim(key, f.toString())) {
      return true; // claimed in this JVM: by a copy of snowid of another user? held, to be safe
    }
    try {
      FileChannel ch;
      try {
        ch = FileChannel.open(f, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
      } catch (NoSuchFileException e) {
        return false;
      } catch (AccessDeniedException e) {
        return true; // its user made it unreadable: it cannot be tested, so it counts as held
      }
      if (!key.equals(LockedFile.keyAt(f))) {
        LockedFile.quarantine(ch); // replaced between the check and the open: never close it
        return true;
      }
      boolean quarantined = false;
      try {
        FileLock probe;
        try {
          probe = ch.tryLock(0, Long.MAX_VALUE, true);
        } catch (OverlappingFileLockException e) {
          // locked in this JVM by code that does not claim: never close it
          LockedFile.quarantine(ch);
          quarantined = true;
          return true;
        }
        if (probe == null) {
          return true;
        }
        try (FileLock unused = probe) {
          if (c != null) {
            c.see(ClaimMark.read(ch), f, uid);
          }
        }
        return false;
      } finally {
        if (!quarantined) {
          ch.close();
        }
      }
    } finally {
      ProcessFileClaims.release(key, f.toString());
    }
  }

  private static int uid() {
    return LeaseDirectory.CurrentUser.uid();
  }

  /** The owner's uid of a file, unsigned; this user's without POSIX owners. */
  static long owner(Path path) throws IOException {
    if (!UnixAttributes.supported(path)) {
      return Integer.toUnsignedLong(uid());
    }
    return Integer.toUnsignedLong(UnixAttributes.uid(path));
  }
}
