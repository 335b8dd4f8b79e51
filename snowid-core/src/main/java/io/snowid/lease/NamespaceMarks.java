package io.snowid.lease;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.snowid.node.NodeIdUnavailableException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;

/**
 * The facts of a namespace that bound a newcomer who cannot know who held an id before it: the
 * longest lease time and the latest high-water mark each user's holders recorded. One file per user
 * and namespace, {@code DIR/<namespace>@<uid>}, in the lease directory itself (not in the namespace
 * folder), holding {@code ttl=<ms>} and {@code high-water=<ms>}; never lowered.
 *
 * <p>A holder raises its user's file before it may issue under a lease or a renewal; a newcomer
 * that must wait out an unknown holder reads every user's file and waits the longest lease time,
 * starting after the latest high-water mark.
 */
final class NamespaceMarks {
  /*
   * Why the lease directory and not the namespace folder: a namespace folder of a shared directory
   * belongs to whichever user created it first, and the owner of a sticky folder may delete every
   * file in it. Lease files stay in the namespace folders (older snowid versions look for them
   * there); the owner of such a folder can delete another user's lease file, whose holder notices
   * at its next renewal, within one lease time, and stops. What must survive that deletion is what
   * makes the newcomer wait that long: these files. The lease directory belongs to root or to this
   * user (LeaseDirectory refuses any other owner), and in a sticky directory only a file's owner,
   * the directory's owner and root may delete or rename it.
   *
   * Each file is replaced whole by a rename of a complete, forced temporary file, so a reader sees
   * the old facts or the new ones. Writers of one user take a lock first, on a file only that user
   * can open (mode 0600): no other user can hold it and stall them. A reader takes no lock.
   */
  private static final String LOCK = ".lock";
  private static final int MAX_SIZE = 256;
  private static final long LOCK_WAIT_NANOS = 10_000_000_000L;

  private static final boolean UNIX =
      java.nio.file.FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

  private static boolean isUnix(Path p) {
    return p.getFileSystem().supportedFileAttributeViews().contains("unix");
  }

  /** What a newcomer learned from every user's file. */
  record Seen(long ttlMillis, long highWater, Path highWaterFile, int highWaterOwner) {}

  private NamespaceMarks() {}

  /** The file of this user for a namespace. */
  static Path of(Path dir, String namespace) {
    return dir.resolve(namespace + "@" + LeaseDirectory.CurrentUser.uid());
  }

  /**
   * Raises this user's record of the namespace's longest lease time and latest high-water mark to
   * at least these values.
   *
   * @throws NodeIdUnavailableException if the file cannot be written, naming it and why
   */
  static void raise(Path dir, String namespace, long ttlMillis, long highWater) {
    Path file = of(dir, namespace);
    Path lockFile = dir.resolve(file.getFileName() + LOCK);
    synchronized (NamespaceMarks.class) {
      try (FileChannel lockChannel = openLock(lockFile);
          FileLock unused = lock(lockChannel, lockFile)) {
        long[] now = readOwn(file);
        if (now != null && now[0] >= ttlMillis && now[1] >= highWater) {
          return;
        }
        long ttl = now == null ? ttlMillis : Math.max(now[0], ttlMillis);
        long mark = now == null ? highWater : Math.max(now[1], highWater);
        Path temp = dir.resolve(file.getFileName() + "." + UUID.randomUUID() + ".new");
        try {
          try (FileChannel ch =
              FileChannel.open(
                  temp,
                  Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                  mode("rw-r--r--"))) {
            ch.write(
                ByteBuffer.wrap(("ttl=" + ttl + "\nhigh-water=" + mark + "\n").getBytes(UTF_8)));
            ch.force(true);
          }
          Files.move(
              temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
          Files.deleteIfExists(temp);
        }
      } catch (IOException e) {
        throw new NodeIdUnavailableException(
            "cannot record the lease time and high-water mark of namespace "
                + namespace
                + " in "
                + file
                + ": "
                + e);
      }
    }
  }

  /** This user's lock file, created mode 0600; refused if another user owns it. */
  private static FileChannel openLock(Path lockFile) throws IOException {
    try {
      return FileChannel.open(
          lockFile,
          Set.of(
              StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
          mode("rw-------"));
    } catch (FileAlreadyExistsException e) {
      // checked before it is opened: only its owner, root or the directory's owner can replace it
      requireOwn(lockFile);
      return FileChannel.open(lockFile, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
    }
  }

  /** Locks this user's lock file, waiting at most 10 s for another process of this user. */
  private static FileLock lock(FileChannel ch, Path lockFile) throws IOException {
    long deadline = System.nanoTime() + LOCK_WAIT_NANOS;
    while (true) {
      FileLock lock;
      try {
        lock = ch.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null; // another copy of snowid in this JVM, outside this class's monitor
      }
      if (lock != null) {
        return lock;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IOException(
            lockFile + " stayed locked for 10 s (owned by " + owner(lockFile) + ")");
      }
      LockSupport.parkNanos(1_000_000L);
    }
  }

  private static FileAttribute<?>[] mode(String permissions) {
    return UNIX
        ? new FileAttribute<?>[] {
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(permissions))
        }
        : new FileAttribute<?>[0];
  }

  private static void requireOwn(Path file) throws IOException {
    if (!isUnix(file)) {
      return;
    }
    Map<String, Object> a = Files.readAttributes(file, "unix:uid,mode", LinkOption.NOFOLLOW_LINKS);
    int uid = (Integer) a.get("uid");
    int mode = (Integer) a.get("mode");
    if (uid != LeaseDirectory.CurrentUser.uid() || (mode & 0170000) != 0100000) {
      throw new AccessDeniedException(
          file.toString(),
          null,
          "it is a "
              + ((mode & 0170000) == 0100000 ? "file" : "non-regular file")
              + " owned by "
              + (uid == 0 ? "root" : "uid " + uid)
              + ", not by this user (uid "
              + LeaseDirectory.CurrentUser.uid()
              + "): remove it as root if that user did not run snowid as uid "
              + LeaseDirectory.CurrentUser.uid());
    }
  }

  private static String owner(Path file) {
    try {
      int uid = (Integer) Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS);
      return uid == 0 ? "root" : "uid " + uid;
    } catch (IOException | RuntimeException e) {
      return "an unknown user";
    }
  }

  /** This user's file: {ttl, high-water}, or null if it has none yet. */
  private static long[] readOwn(Path file) throws IOException {
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      return null;
    }
    requireOwn(file);
    long[] v = parse(file);
    if (v == null) {
      throw new IOException(file + " is damaged: remove it (it is rewritten)");
    }
    return v;
  }

  /**
   * Reads every user's file of a namespace.
   *
   * @throws NodeIdUnavailableException if the lease directory cannot be listed
   */
  static Seen readAll(Path dir, String namespace) {
    long ttl = 0;
    long highWater = Long.MIN_VALUE;
    Path highWaterFile = null;
    int highWaterOwner = -1;
    String prefix = namespace + "@";
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
      for (Path f : files) {
        String name = f.getFileName().toString();
        if (!name.startsWith(prefix) || !name.substring(prefix.length()).matches("[0-9]{1,10}")) {
          continue;
        }
        long[] v;
        int uid;
        try {
          if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
            continue;
          }
          uid =
              isUnix(f)
                  ? (Integer) Files.getAttribute(f, "unix:uid", LinkOption.NOFOLLOW_LINKS)
                  : -1;
          v = parse(f);
        } catch (NoSuchFileException | AccessDeniedException e) {
          continue;
        }
        if (v == null) {
          continue;
        }
        ttl = Math.max(ttl, v[0]);
        if (v[1] > highWater) {
          highWater = v[1];
          highWaterFile = f;
          highWaterOwner = uid;
        }
      }
    } catch (IOException e) {
      throw new NodeIdUnavailableException("lease directory " + dir + " cannot be read: " + e);
    }
    return new Seen(ttl, highWater, highWaterFile, highWaterOwner);
  }

  /** {ttl, high-water} of a file; null if damaged. */
  private static long[] parse(Path f) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(MAX_SIZE);
    try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      while (buf.hasRemaining() && ch.read(buf) > 0) {
        // read up to MAX_SIZE bytes
      }
    }
    String[] lines = new String(buf.array(), 0, buf.position(), UTF_8).split("\n");
    if (lines.length != 2
        || !lines[0].matches("ttl=[0-9]{1,18}")
        || !lines[1].matches("high-water=-?[0-9]{1,19}")) {
      return null;
    }
    try {
      return new long[] {
        Long.parseLong(lines[0].substring(4)), Long.parseLong(lines[1].substring(11))
      };
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
