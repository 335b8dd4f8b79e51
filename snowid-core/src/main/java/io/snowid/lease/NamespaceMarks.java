package io.snowid.lease;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.snowid.InvalidSettingException;
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
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;

/**
 * A namespace's terms and marks in a lease directory: the limits its holders share, the longest
 * lease time and the latest high-water mark they recorded, when they last wrote, and the latest
 * loss found. One file per user and namespace, {@code DIR/<namespace>@<uid>}, in the lease
 * directory itself (not in the namespace folder, whose owner could delete them), holding {@code
 * ttl=}, {@code high-water=}, {@code max-ttl=}, {@code max-skew=}, {@code written=} and {@code
 * lost-until=} (milliseconds).
 *
 * <p>A holder writes its user's file at every acquisition and renewal, before it may issue: the
 * lease time and mark are raised, never lowered while a holder may still issue under them, and
 * {@code written} is the host's clock. A file is trusted unless it changed after {@code written}
 * (copied back from a backup) or {@code written} is ahead of the reader's clock; a trusted file
 * whose holders may still issue ({@link Marks#live}: written within its limits' {@code maxTtl +
 * maxSkew + 1 s}) fixes the namespace's limits: a holder asking with others is refused. A newcomer
 * that must wait out an unknown holder reads every user's file and waits the longest lease time of
 * the live ones, starting after the latest high-water mark and the latest trusted {@code
 * lost-until}; if there are files but none is live (idle, or copied back), it also waits its own
 * {@code maxTtl} and records the loss in its file (docs/design.md, "The {@code file:} backend",
 * terms and marks).
 *
 * <p>Each write replaces the file whole by the rename of a complete, forced temporary file, so a
 * reader sees the old facts or the new ones; writers of one user first lock a file only that user
 * can open (mode 0600), so no other user can stall them. A reader takes no lock. Why these files
 * lie in the lease directory: docs/design.md, "The {@code file:} backend".
 */
final class NamespaceMarks {
  private static final String LOCK = ".lock";
  private static final int MAX_SIZE = 256;
  private static final long LOCK_WAIT_NANOS = 10_000_000_000L;

  private static final boolean UNIX =
      java.nio.file.FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

  /**
   * One user's file as read: {@code trusted} false when the file changed after its {@code written}
   * (copied or restored: its change time is later) or {@code written} is ahead of the reader's
   * clock.
   */
  record Marks(
      long ttlMillis,
      long highWater,
      LeaseLimits limits,
      long writtenMillis,
      long lostUntil,
      boolean trusted) {
    /** Whether a holder that wrote it may still issue at {@code nowMillis}, as far as it shows. */
    boolean live(long nowMillis) {
      return trusted && nowMillis < limits.lostUntilMillis(writtenMillis);
    }

    String text() {
      return "ttl="
          + ttlMillis
          + "\nhigh-water="
          + highWater
          + "\nmax-ttl="
          + limits.maxTtl().toMillis()
          + "\nmax-skew="
          + limits.maxSkew().toMillis()
          + "\nwritten="
          + writtenMillis
          + "\nlost-until="
          + lostUntil
          + "\n";
    }
  }

  /**
   * What a newcomer learned from every user's file: the longest lease time of those a holder may
   * still issue under, the latest high-water mark (its file and owner), the live file with the
   * newest write (null if none is live), the newest write of any trusted file (null if none is),
   * the latest loss a holder recorded (the ID time before which no newcomer that must wait starts),
   * and how many files it read.
   */
  record Seen(
      long ttlMillis,
      long highWater,
      Path highWaterFile,
      int highWaterOwner,
      Path liveFile,
      Marks live,
      Marks newest,
      long lostUntil,
      int files) {
    boolean any() {
      return files > 0;
    }
  }

  private NamespaceMarks() {}

  /** The file of this user for a namespace. */
  static Path of(Path dir, String namespace) {
    return dir.resolve(namespace + "@" + LeaseDirectory.CurrentUser.uid());
  }

  /**
   * Writes this user's file: the lease time and high-water mark raised to at least these values
   * (or, when no holder of the file may still issue, the lease time set to this one), the loss mark
   * raised to {@code lostUntil}, the limits and the time of this write.
   *
   * @param nowMillis the host's clock as the caller read it ({@code System.currentTimeMillis()}, as
   *     a record's {@code writtenAt}); the write reads it again under the lock and takes the later
   * @throws LeaseTermsException if the file is live with other limits
   * @throws NodeIdUnavailableException if the file cannot be written, naming it and why
   */
  static void raise(
      Path dir,
      String namespace,
      long ttlMillis,
      long highWater,
      LeaseLimits limits,
      long lostUntil,
      long nowMillis) {
    Path file = of(dir, namespace);
    Path lockFile = dir.resolve(file.getFileName() + LOCK);
    synchronized (NamespaceMarks.class) {
      try (FileChannel lockChannel = openLock(lockFile);
          FileLock unused = lock(lockChannel, lockFile)) {
        // The caller read the clock before the lock, which may have taken seconds: read it again,
        // so that a write made meanwhile is judged as of now, and written never goes back.
        long t = Math.max(nowMillis, System.currentTimeMillis());
        Marks now = readOwn(file, t);
        boolean live = now != null && now.live(t);
        if (live && !now.limits().equals(limits)) {
          throw refused(dir, namespace, file, now, limits);
        }
        long ttl = live ? Math.max(now.ttlMillis(), ttlMillis) : ttlMillis;
        long mark = now == null ? highWater : Math.max(now.highWater(), highWater);
        long lost = now == null ? lostUntil : Math.max(now.lostUntil(), lostUntil);
        long written = now != null && now.trusted() ? Math.max(t, now.writtenMillis()) : t;
        if (now != null && !now.trusted()) {
          // copied or restored (or written ahead of this clock): what holders raised since is lost
          lost = Math.max(lost, limits.lostUntilMillis(t));
        }
        // A mark beyond these limits can only come from an untrusted file, which no reader honours.
        lost = Math.min(lost, limits.lostUntilMillis(written));
        Marks next = new Marks(ttl, mark, limits, written, lost, true);
        Path temp = dir.resolve(file.getFileName() + "." + UUID.randomUUID() + ".new");
        try {
          try (FileChannel ch =
              FileChannel.open(
                  temp,
                  Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                  mode("rw-r--r--"))) {
            ch.write(ByteBuffer.wrap(next.text().getBytes(UTF_8)));
            ch.force(true);
          }
          Files.move(
              temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
          Files.deleteIfExists(temp);
        }
      } catch (IOException e) {
        throw new NodeIdUnavailableException(
            "cannot record the terms and marks of namespace "
                + namespace
                + " in "
                + file
                + ": "
                + e);
      }
    }
  }

  /** The refusal of a holder that asks with other limits than a live file's. */
  static LeaseTermsException refused(
      Path dir, String namespace, Path file, Marks live, LeaseLimits asked) {
    return new LeaseTermsException(
        namespace,
        "file:" + dir,
        live.limits(),
        "holders of "
            + owner(file)
            + " that last wrote "
            + file
            + " at "
            + java.time.Instant.ofEpochMilli(live.writtenMillis())
            + " (their limits hold until "
            + java.time.Instant.ofEpochMilli(live.limits().lostUntilMillis(live.writtenMillis()))
            + ", after the last of them stopped)",
        asked);
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
    if (!UnixAttributes.supported(file)) {
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
              + UnixAttributes.ownerName(uid)
              + ", not by this user (uid "
              + LeaseDirectory.CurrentUser.uid()
              + "): remove it as root if that user did not run snowid as uid "
              + LeaseDirectory.CurrentUser.uid());
    }
  }

  private static String owner(Path file) {
    try {
      return UnixAttributes.ownerName(UnixAttributes.uid(file));
    } catch (IOException | RuntimeException e) {
      return "an unknown user";
    }
  }

  /** This user's file, or null if it has none yet. */
  private static Marks readOwn(Path file, long nowMillis) throws IOException {
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      return null;
    }
    requireOwn(file);
    Marks v = parse(file, nowMillis);
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
  static Seen readAll(Path dir, String namespace, long nowMillis) {
    long ttl = 0;
    long highWater = Long.MIN_VALUE;
    Path highWaterFile = null;
    int highWaterOwner = -1;
    Path liveFile = null;
    Marks live = null;
    int read = 0;
    Marks newest = null;
    long lostUntil = Long.MIN_VALUE;
    String prefix = namespace + "@";
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
      for (Path f : files) {
        String name = f.getFileName().toString();
        if (!name.startsWith(prefix) || !name.substring(prefix.length()).matches("[0-9]{1,10}")) {
          continue;
        }
        Marks v;
        int uid;
        try {
          if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
            continue;
          }
          uid = UnixAttributes.supported(f) ? UnixAttributes.uid(f) : -1;
          v = parse(f, nowMillis);
        } catch (NoSuchFileException | AccessDeniedException e) {
          continue;
        }
        if (v == null) {
          continue;
        }
        read++;
        if (v.live(nowMillis)) {
          ttl = Math.max(ttl, v.ttlMillis());
        }
        if (v.highWater() > highWater) {
          highWater = v.highWater();
          highWaterFile = f;
          highWaterOwner = uid;
        }
        if (v.trusted() && (newest == null || v.writtenMillis() > newest.writtenMillis())) {
          newest = v;
        }
        if (v.trusted()) {
          lostUntil = Math.max(lostUntil, v.lostUntil());
        }
        if (v.live(nowMillis) && (live == null || v.writtenMillis() > live.writtenMillis())) {
          live = v;
          liveFile = f;
        }
      }
    } catch (IOException e) {
      throw new NodeIdUnavailableException("lease directory " + dir + " cannot be read: " + e);
    }
    return new Seen(
        ttl, highWater, highWaterFile, highWaterOwner, liveFile, live, newest, lostUntil, read);
  }

  /**
   * A file's marks; null if damaged: lines missing or unknown, a lease time above its own {@code
   * max-ttl}, or a loss mark later than its limits allow after its write.
   */
  private static Marks parse(Path f, long nowMillis) throws IOException {
    long changed = UnixAttributes.supported(f) ? UnixAttributes.changedMillis(f) : -1;
    ByteBuffer buf = ByteBuffer.allocate(MAX_SIZE);
    try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      while (buf.hasRemaining() && ch.read(buf) > 0) {
        // read up to MAX_SIZE bytes
      }
    }
    String[] lines = new String(buf.array(), 0, buf.position(), UTF_8).split("\n");
    String[] keys = {"ttl=", "high-water=", "max-ttl=", "max-skew=", "written=", "lost-until="};
    if (lines.length != keys.length) {
      return null;
    }
    long[] v = new long[lines.length];
    for (int i = 0; i < lines.length; i++) {
      if (!lines[i].startsWith(keys[i])
          || !lines[i].substring(keys[i].length()).matches("-?[0-9]{1,19}")) {
        return null;
      }
      try {
        v[i] = Long.parseLong(lines[i].substring(keys[i].length()));
      } catch (NumberFormatException e) {
        return null;
      }
    }
    if (v[0] < 0) {
      return null;
    }
    LeaseLimits limits;
    try {
      limits = new LeaseLimits(Duration.ofMillis(v[2]), Duration.ofMillis(v[3]));
    } catch (InvalidSettingException e) {
      return null;
    }
    if (v[0] > v[2] || v[5] > limits.lostUntilMillis(v[4])) {
      return null;
    }
    boolean trusted =
        v[4] <= nowMillis + LeaseLimits.SLACK.toMillis()
            && (changed < 0 || changed <= v[4] + LeaseLimits.SLACK.toMillis());
    return new Marks(v[0], v[1], limits, v[4], v[5], trusted);
  }
}
