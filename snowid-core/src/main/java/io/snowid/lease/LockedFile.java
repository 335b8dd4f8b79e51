package io.snowid.lease;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * A file this process opened, claimed in this JVM ({@link ProcessFileClaims}) under its file key,
 * and locked, or found locked by another process; the lease files and host-wide claim files are all
 * opened, created and let go through here.
 *
 * <p>Closing any descriptor of a file drops every lock the process holds on it, so a channel that
 * may refer to a file this JVM holds under another name is never closed: it is {@linkplain
 * #quarantine quarantined}, kept open and reachable (a channel that is collected closes its
 * descriptor).
 *
 * @param channel the channel the file was opened with
 * @param lock the exclusive lock taken through it; null if another process holds the file
 * @param path where the file was found
 * @param key its file key ({@link #keyOf}), under which it is claimed in this JVM
 */
record LockedFile(FileChannel channel, FileLock lock, Path path, String key) {
  /** Channels that must never be closed: they may refer to a file this JVM holds. */
  private static final List<FileChannel> QUARANTINE =
      Collections.synchronizedList(new ArrayList<>());

  private static final Set<OpenOption> NEW_FILE =
      Set.of(
          StandardOpenOption.CREATE_NEW,
          StandardOpenOption.READ,
          StandardOpenOption.WRITE,
          LinkOption.NOFOLLOW_LINKS);

  /** What is done to a new file before it is locked and linked into place. */
  interface Preparation {
    void prepare(Path temp) throws IOException;
  }

  /** A file's identity: its file key (device and inode), or its path without one. */
  static String keyOf(BasicFileAttributes a, Path path) {
    Object k = a.fileKey();
    return k != null ? k.toString() : path.toAbsolutePath().toString();
  }

  /** The key of the file at a path now (not following a symbolic link); null if there is none. */
  static String keyAt(Path path) throws IOException {
    try {
      return keyOf(
          Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS), path);
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /** Keeps a channel open for good: it may refer to a file this JVM holds. */
  static void quarantine(FileChannel ch) {
    QUARANTINE.add(ch);
  }

  /**
   * Creates the file at {@code path} locked before it appears there: {@code temp} is created (with
   * {@code attributes}), prepared, claimed, locked and then linked to the path, which fails if the
   * path exists. So the file locked is the file at the path, with no moment in between.
   *
   * @return the locked file; null if another process created the path meanwhile
   */
  static LockedFile create(
      Path path, Path temp, Preparation preparation, FileAttribute<?>... attributes)
      throws IOException {
    FileChannel ch = FileChannel.open(temp, NEW_FILE, attributes);
    // A new file cannot be held by this JVM, so this channel is safe to close whatever happens.
    String key = null;
    boolean keep = false;
    try {
      preparation.prepare(temp);
      key =
          keyOf(
              Files.readAttributes(temp, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS),
              temp);
      if (!ProcessFileClaims.claim(key, path.toString())) {
        return null;
      }
      FileLock lock = ch.tryLock();
      if (lock == null) {
        return null;
      }
      try {
        Files.createLink(path, temp);
      } catch (FileAlreadyExistsException e) {
        return null; // created meanwhile by another process
      } catch (UnsupportedOperationException e) {
        Files.move(temp, path); // a file system without hard links: no atomic way, the next best
      }
      keep = true;
      return new LockedFile(ch, lock, path, key);
    } finally {
      Files.deleteIfExists(temp);
      if (!keep) {
        try {
          ch.close();
        } finally {
          if (key != null) {
            ProcessFileClaims.release(key, path.toString());
          }
        }
      }
    }
  }

  /**
   * Locks a file opened at {@code path} after it was claimed under {@code key}, if the path still
   * leads to that file.
   *
   * @return the file, without a lock if another process holds it (the caller closes it); null if
   *     the channel was quarantined: the path changed between the check and the open, or code in
   *     this JVM that does not claim files holds it
   */
  static LockedFile tryLock(FileChannel ch, Path path, String key) throws IOException {
    if (!key.equals(keyAt(path))) {
      quarantine(ch);
      return null;
    }
    FileLock lock;
    try {
      lock = ch.tryLock();
    } catch (OverlappingFileLockException e) {
      quarantine(ch);
      return null;
    }
    return new LockedFile(ch, lock, path, key);
  }

  /** Closes the file, which drops its lock, and gives up its claim in this JVM. */
  void close() {
    try {
      channel.close();
    } catch (IOException e) {
      // closing drops the lock; nothing else to do
    } finally {
      ProcessFileClaims.release(key, path.toString());
    }
  }
}
