package io.snowid.lease;

import static java.nio.charset.StandardCharsets.UTF_8;

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
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

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
 * read, for the namespace's high-water marks only. Each user keeps the namespace's longest lease
 * time in a file of its own, and every such file is read.
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

  /** Channels that must never be closed: they may refer to a file this JVM holds. */
  private static final List<FileChannel> QUARANTINE =
      Collections.synchronizedList(new ArrayList<>());

  private static final Set<OpenOption> CREATE_NEW =
      Set.of(
          StandardOpenOption.CREATE_NEW,
          StandardOpenOption.READ,
          StandardOpenOption.WRITE,
          LinkOption.NOFOLLOW_LINKS);

  private final Path dir;
  private final Map<String, Held> held = new ConcurrentHashMap<>();

  /** A locked lease file and the record last written to it. Guarded by itself. */
  private static final class Held {
    final FileChannel channel;
    final FileLock lock;
    final Path path;
    final String key;
    LeaseRecord record;

    Held(FileChannel channel, FileLock lock, Path path, String key, LeaseRecord record) {
      this.channel = channel;
      this.lock = lock;
      this.path = path;
      this.key = key;
      this.record = record;
    }
  }

  /** A lease file this call has locked, and what its record allows. */
  private record Candidate(
      long id,
      Path path,
      String key,
      FileChannel channel,
      FileLock lock,
      LeaseRecord previous,
      boolean mustWait,
      boolean sameInstance) {
    /** Lower is better: the instance's own id, then one free without a wait, then the lowest. */
    int rank() {
      return (sameInstance ? 0 : 2) + (mustWait ? 1 : 0);
    }
  }

  FileLeaseCoordinator(Path dir) {
    this.dir = dir;
  }

  static FileLeaseCoordinator open(String base) {
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
    return new FileLeaseCoordinator(LeaseDirectory.open(Paths.get(raw)));
  }

  /**
   * What this acquisition learned of the namespace from every record it could read, held or not: a
   * newcomer that must wait out an unknown holder starts after all of it.
   */
  private static final class NamespaceView {
    long highWater = Long.MIN_VALUE;
    long ttlMillis;

    void saw(LeaseRecord r) {
      highWater = Math.max(highWater, r.highWater());
      ttlMillis = Math.max(ttlMillis, r.ttlMillis());
    }

    /**
     * Another user's record: its high-water mark only makes a newcomer wait longer, whatever that
     * user wrote; its lease time comes from that user's own longest-ttl file.
     */
    void sawHighWater(LeaseRecord r) {
      highWater = Math.max(highWater, r.highWater());
    }
  }

  @Override
  public Lease acquire(AcquireRequest request) {
    String namespace = request.namespace();
    long size = request.size();
    Path nsDir = LeaseDirectory.namespace(dir, namespace);
    NamespaceView view = new NamespaceView();
    Candidate best = null;
    try {
      view.ttlMillis = raiseLongestTtl(nsDir, request.terms().ttl().toMillis());
      TreeSet<Long> existing = existingIds(nsDir, size);
      for (long id : existing) {
        Candidate c = probe(nsDir, id, request, view);
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
      for (long id = 0; id < size && (best == null || best.mustWait()); id++) {
        if (existing.contains(id)) {
          continue;
        }
        if (best != null && best.id() < id) {
          break; // an existing id that needs the same wait, and is lower
        }
        Candidate c = create(nsDir, id);
        if (c != null) {
          abandon(best);
          best = c;
        }
      }
      if (best == null) {
        throw new NodeIdsExhaustedException(namespace, size, "in " + dir);
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

  private static TreeSet<Long> existingIds(Path nsDir, long size) throws IOException {
    TreeSet<Long> ids = new TreeSet<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(nsDir, "*.lease")) {
      for (Path f : files) {
        String name = f.getFileName().toString();
        String digits = name.substring(0, name.length() - ".lease".length());
        if (digits.matches("0|[1-9][0-9]{0,18}")) {
          long id = Long.parseLong(digits);
          if (id < size) {
            ids.add(id);
          }
        }
      }
    }
    return ids;
  }

  /**
   * The namespace's record of the longest lease time any holder used: survives a lost record. One
   * file per user of a shared directory: {@code longest-ttl} for the first that could write it,
   * {@code longest-ttl.<uid>} for the others.
   */
  private static final String LONGEST_TTL = "longest-ttl";

  /**
   * Raises this user's record of the namespace's longest lease time to {@code ttlMillis} and
   * returns the longest of every user's record. A holder whose own record is deleted can still
   * issue for its lease time; a newcomer that finds no record waits the longest any holder of the
   * namespace used, not only its own. A user writes only a file it owns, so no other user can lower
   * what it recorded; another's file can only lengthen a wait. The own file is locked while it is
   * read and written (it is never a lease file, so closing it drops no lease lock).
   */
  private static long raiseLongestTtl(Path nsDir, long ttlMillis) throws IOException {
    Path shared = nsDir.resolve(LONGEST_TTL);
    Path mine = nsDir.resolve(LONGEST_TTL + "." + LeaseDirectory.CurrentUser.uid());
    // One JVM serializes itself (the OS lock is per process); another copy of snowid in this JVM
    // shows as an overlapping lock and is waited out. The files read here but not locked belong
    // to other users, whose files no process of this user locks: closing them drops no lock.
    synchronized (FileLeaseCoordinator.class) {
      Path own = shared;
      Long longest = raiseOwnLongestTtl(shared, ttlMillis);
      if (longest == null) {
        own = mine;
        longest = raiseOwnLongestTtl(mine, ttlMillis);
      }
      long result = longest == null ? ttlMillis : longest;
      try (DirectoryStream<Path> files = Files.newDirectoryStream(nsDir, LONGEST_TTL + "*")) {
        for (Path f : files) {
          if (!f.equals(own)) {
            result = Math.max(result, readLongestTtl(f));
          }
        }
      }
      return result;
    }
  }

  /**
   * Raises the longest lease time in {@code path}, a file this user owns or creates; null if it
   * belongs to another user (who alone may write it).
   */
  private static Long raiseOwnLongestTtl(Path path, long ttlMillis) throws IOException {
    for (int attempt = 0; ; attempt++) {
      try (FileChannel ch =
              FileChannel.open(
                  path,
                  StandardOpenOption.CREATE,
                  StandardOpenOption.READ,
                  StandardOpenOption.WRITE,
                  LinkOption.NOFOLLOW_LINKS);
          FileLock unused = ch.lock()) {
        if (!isMine(path)) {
          return null; // another user's, writable by mistake or planted: not this user's record
        }
        return raiseLongestTtl(ch, ttlMillis);
      } catch (AccessDeniedException e) {
        return null;
      } catch (OverlappingFileLockException e) {
        if (attempt >= 1_000) {
          return ttlMillis;
        }
        LockSupport.parkNanos(1_000_000L);
      }
    }
  }

  /** Whether a file belongs to this very user (not merely to root). */
  private static boolean isMine(Path path) throws IOException {
    if (!path.getFileSystem().supportedFileAttributeViews().contains("unix")) {
      return true;
    }
    return (Integer) Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS)
        == LeaseDirectory.CurrentUser.uid();
  }

  /** What a longest-ttl file says; 0 when it is unreadable or damaged. */
  private static long readLongestTtl(Path f) {
    if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
      return 0;
    }
    try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      return parseLongestTtl(ch);
    } catch (IOException e) {
      return 0;
    }
  }

  private static long parseLongestTtl(FileChannel ch) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(32);
    ch.read(buf, 0);
    try {
      return Long.parseLong(new String(buf.array(), 0, buf.position(), UTF_8).trim());
    } catch (NumberFormatException e) {
      return 0; // new, or damaged: what it said is lost, as with a deleted record
    }
  }

  private static long raiseLongestTtl(FileChannel ch, long ttlMillis) throws IOException {
    long longest = parseLongestTtl(ch);
    if (ttlMillis > longest) {
      byte[] text = String.format("%-20d%n", ttlMillis).getBytes(UTF_8);
      ch.write(ByteBuffer.wrap(text), 0);
      ch.truncate(text.length);
      ch.force(true);
      longest = ttlMillis;
    }
    return longest;
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
    String key = keyOf(before, path);
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
    FileChannel ch =
        temp.getFileSystem().supportedFileAttributeViews().contains("posix")
            ? FileChannel.open(
                temp,
                CREATE_NEW,
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")))
            : FileChannel.open(temp, CREATE_NEW);
    // A new file cannot be held by this JVM, so this channel is safe to close whatever happens.
    String key = null;
    boolean keep = false;
    try {
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
        return null; // created meanwhile by another process: the next call probes it
      } catch (UnsupportedOperationException e) {
        Files.move(temp, path); // a file system without hard links: no atomic way, the next best
      }
      keep = true;
      return new Candidate(id, path, key, ch, lock, null, true, false);
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

  private Candidate lockAndJudge(
      FileChannel ch, Path path, String key, long id, AcquireRequest request, NamespaceView view)
      throws IOException {
    boolean keep = false;
    try {
      String after;
      try {
        after =
            keyOf(
                Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS),
                path);
      } catch (NoSuchFileException e) {
        after = null;
      }
      if (!key.equals(after)) {
        // The path changed between the check and the open: this channel may be a file that this
        // JVM holds under another name, and closing it would drop that lock. Never close it.
        QUARANTINE.add(ch);
        keep = true;
        return null;
      }
      FileLock lock;
      try {
        lock = ch.tryLock();
      } catch (OverlappingFileLockException e) {
        QUARANTINE.add(ch); // locked in this JVM by code that does not claim: never close it
        keep = true;
        return null;
      }
      if (lock == null) {
        seeHeld(ch, view); // held by another process: its record still bounds a newcomer's start
        return null;
      }
      Candidate c = judge(ch, lock, path, key, id, request, view);
      if (c == null) {
        lock.release();
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
    if (!path.getFileSystem().supportedFileAttributeViews().contains("unix")) {
      return true;
    }
    int uid = (Integer) Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
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
    try (FileChannel ch =
        FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      LeaseRecord r = read(ch);
      if (r != null && r.version() <= LeaseRecord.VERSION) {
        view.sawHighWater(r);
      }
    } catch (NoSuchFileException | AccessDeniedException | LeaseRecord.DamagedException e) {
      // gone, unreadable or damaged: nothing to learn from it
    } finally {
      ProcessFileClaims.release(key, path.toString());
    }
  }

  /** Reads the record of a file another process holds, for its high-water mark and lease time. */
  private static void seeHeld(FileChannel ch, NamespaceView view) throws IOException {
    try {
      LeaseRecord r = read(ch);
      if (r != null) {
        view.saw(r);
      }
    } catch (LeaseRecord.DamagedException e) {
      // being written, or damaged: its holder rewrites it; nothing to learn from it
    }
  }

  /** Decides, for a file this call has locked, whether its record lets the id be taken. */
  private static Candidate judge(
      FileChannel ch,
      FileLock lock,
      Path path,
      String key,
      long id,
      AcquireRequest request,
      NamespaceView view)
      throws IOException {
    long now = request.terms().localNowMillis();
    LeaseRecord r;
    try {
      r = read(ch);
    } catch (LeaseRecord.DamagedException e) {
      LOG.log(
          Level.WARNING,
          "node id {0}: lease record {1} is damaged ({2}); taking it over after one lease time",
          str(id),
          path,
          e.getMessage());
      return new Candidate(id, path, key, ch, lock, null, true, false);
    }
    if (r == null) {
      return new Candidate(id, path, key, ch, lock, null, true, false);
    }
    if (r.version() > LeaseRecord.VERSION) {
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
    view.saw(r);
    boolean mine = request.instance().equals(r.instance());
    HolderProcess.Liveness holder =
        HolderProcess.isThisProcess(r)
            ? ProcessFileClaims.isLiveToken(r.token())
                ? HolderProcess.Liveness.ALIVE
                : HolderProcess.Liveness.DEAD // left by a coordinator closed without release
            : HolderProcess.of(r);
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
      return new Candidate(id, path, key, ch, lock, r, true, mine);
    }
    if (r.isReleased() || holder == HolderProcess.Liveness.DEAD) {
      return new Candidate(id, path, key, ch, lock, r, false, mine);
    }
    if (expired) {
      // A holder that may be alive but stopped renewing: it fenced itself at its deadline. Wait
      // one lease time, so that if it is alive and renews after all, one of the two sees the
      // other's token before either issues an ID under the same node id.
      return new Candidate(id, path, key, ch, lock, r, true, mine);
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
    if (r.writtenAt() < 0 || !path.getFileSystem().supportedFileAttributeViews().contains("unix")) {
      return false;
    }
    FileTime changed = (FileTime) Files.getAttribute(path, "unix:ctime", LinkOption.NOFOLLOW_LINKS);
    return changed.toMillis() <= r.writtenAt() + WRITE_SLACK_MILLIS;
  }

  private Lease take(Candidate c, AcquireRequest request, NamespaceView view) throws IOException {
    LeaseTerms terms = request.terms();
    long now = terms.localNowMillis();
    long previous = c.previous() == null ? Long.MIN_VALUE : c.previous().highWater();
    long startAfter = previous;
    if (c.mustWait()) {
      // After whoever may hold the id: one lease time (the longest any record of the namespace
      // names), and after every high-water mark of the namespace, since a holder whose record was
      // lost may run on a clock as far ahead as any other holder's.
      long wait = Math.max(terms.ttl().toMillis(), view.ttlMillis);
      startAfter = Math.max(Math.max(previous, view.highWater), now + wait);
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
    try {
      write(c.channel(), record);
    } catch (IOException | RuntimeException e) {
      abandon(c);
      throw e;
    }
    ProcessFileClaims.liveToken(token, c.path().toString());
    held.put(token, new Held(c.channel(), c.lock(), c.path(), c.key(), record));
    return new Lease(
        request.namespace(),
        c.id(),
        request.instance(),
        token,
        now,
        terms.expiresAtMillis(),
        startAfter);
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
      c.channel().close();
    } catch (IOException e) {
      // closing drops the lock; nothing else to do
    } finally {
      ProcessFileClaims.release(c.key(), c.path().toString());
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
          write(h.channel, next);
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

  /** Why the file at the path is no longer the one this holder locked; null if it still is. */
  private static String lostBecause(Held h) throws IOException {
    if (!h.lock.isValid()) {
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
    if (!keyOf(now, h.path).equals(h.key)) {
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
    ProcessFileClaims.endToken(token);
    try {
      h.channel.close();
    } catch (IOException e) {
      // closing drops the lock; nothing else to do
    } finally {
      ProcessFileClaims.release(h.key, h.path.toString());
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
            write(
                h.channel,
                h.record.released(
                    Math.max(h.record.base(), issuedUpToMillis), System.currentTimeMillis()));
          }
        }
      } catch (IOException e) {
        throw new NodeIdUnavailableException("cannot write " + h.path + ": " + e);
      } finally {
        drop(lease.token(), h);
      }
    }
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
      ch.truncate(LeaseRecord.SIZE); // a longer record of an older format: drop its tail, after
    }
    ch.force(true);
  }

  private static String keyOf(BasicFileAttributes a, Path path) {
    Object k = a.fileKey();
    return k != null ? k.toString() : path.toAbsolutePath().toString();
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
