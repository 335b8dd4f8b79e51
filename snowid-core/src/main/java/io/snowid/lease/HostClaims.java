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
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.UnaryOperator;
import java.util.zip.CRC32;

/**
 * Host-wide claims of {@code file:} leases: a holder of node id {@code id} of namespace {@code key}
 * in any lease directory also claims {@code (key, id)} in one place shared by the whole host, so a
 * process on another lease directory of the host cannot take the same node values while it lives.
 *
 * <p>The place is {@link #PLACE} ({@code /tmp/snowid-claims}), whatever the lease directory and
 * {@code java.io.tmpdir}; it is checked as a lease directory is ({@link LeaseDirectory}): it must
 * belong to root or this user, and is created {@code 1777} in {@code /tmp}. A claim is the file
 * {@code <place>/<key>@<id>.<uid>}, one per user, owned by that user, mode {@code 0644}, locked by
 * its holder. A process claims by locking its own user's file, then testing every other user's file
 * of that {@code (key, id)} with a momentary shared lock: if one is held, it lets its own go and
 * the id counts as taken. A file named for a user who does not own it is ignored. The holder
 * records its high-water mark in its file before it may issue, so that a newcomer on another
 * directory starts after the ID times any holder of those values may have used.
 *
 * <p>On by default; {@code snowid.host-claim=off} (or {@code SNOWID_HOST_CLAIM=off}) turns it off
 * (docs/design.md, "Host-wide claims").
 */
final class HostClaims {
  /*
   * Why one file per user, and why flat. A lock excludes only the processes that can open the file:
   * a user cannot lock another user's 0644 file exclusively, and a file all users may write could be
   * deleted by its owner (in a sticky folder the owner of a file may delete it) under another user's
   * holder, after which a newcomer locks a new file at the path. So each user locks only its own
   * file, and reads the others'. Two racers of two users who both lock their own and then see the
   * other's both back off (never both win: the one that tested second sees the first's lock), and
   * try again (three attempts in all) after a short random pause if the other's file was let go.
   *
   * The files lie directly in the place, not in a folder per namespace: such a folder would belong to
   * whichever user created it first, who could delete the other users' claims in it. The place itself
   * must belong to root or this user (LeaseDirectory's rule for a lease directory), so only the file's
   * owner and root can delete a claim. A holder notices a deleted or replaced claim at its next
   * renewal and stops (as it does for its lease file).
   *
   * Tmp cleaners (systemd-tmpfiles, tmpreaper, tmpwatch) delete by age: each renewal writes the file
   * (its modification time) and reads it back through the held channel (its access time), so a
   * held claim is never old. Claim files are never deleted by snowid: deleting a file another
   * process has locked would let a third lock a new one.
   *
   * Inside one JVM, a file this JVM holds is never opened a second time (closing any descriptor of
   * a file drops the process's locks on it): claims go through ProcessFileClaims, as lease files do.
   */
  private static final System.Logger LOG = System.getLogger("io.snowid.lease");

  /** The system property that turns host-wide claims off. */
  static final String PROPERTY = "snowid.host-claim";

  /** The environment variable that turns host-wide claims off. */
  static final String VARIABLE = "SNOWID_HOST_CLAIM";

  /** The place of the whole host: the same for every user, lease directory and JVM. */
  static final Path PLACE = defaultPlace();

  private static final HostClaims OFF = new HostClaims(null);
  private static final AtomicBoolean SAID_OFF = new AtomicBoolean();
  private static final int MAX_ATTEMPTS = 3;
  private static final int MAX_SIZE = 128;
  private static final int VERSION = 1;

  private final Path place;

  /** The place's real path, once checked; checked again at every acquisition. */
  private volatile Path checked;

  /**
   * Claims in {@code place}; tests give a place of their own, the product {@link #PLACE}.
   *
   * @param place where the claims are, or null for none
   */
  HostClaims(Path place) {
    this.place = place;
  }

  /**
   * Claims in {@link #PLACE}, unless the system property or environment variable turns them off.
   */
  static HostClaims configured() {
    return configured(PLACE, System::getenv);
  }

  /**
   * Claims in {@code place}, unless {@link #PROPERTY} (or else {@link #VARIABLE} of {@code
   * variables}) is {@code off}.
   *
   * @throws InvalidSettingException for a value other than {@code on} or {@code off}
   */
  static HostClaims configured(Path place, UnaryOperator<String> variables) {
    String property = trimmed(System.getProperty(PROPERTY));
    String value = property != null ? property : trimmed(variables.apply(VARIABLE));
    if (value == null || value.equalsIgnoreCase("on")) {
      return new HostClaims(place);
    }
    if (value.equalsIgnoreCase("off")) {
      if (SAID_OFF.compareAndSet(false, true)) {
        LOG.log(
            Level.DEBUG,
            "snowid host-wide claims are off ({0}=off): two lease directories of this host may"
                + " hand out the same node values",
            property != null ? PROPERTY : VARIABLE);
      }
      return OFF;
    }
    throw new InvalidSettingException(
        property != null ? PROPERTY : VARIABLE, value, "on or off" + nearMiss(value));
  }

  private static String nearMiss(String value) {
    String v = value.toLowerCase(Locale.ROOT);
    if (Set.of("of", "0ff", "false", "no", "0", "disable", "disabled").contains(v)) {
      return " (did you mean off?)";
    }
    if (Set.of("o", "onn", "0n", "true", "yes", "1", "enable", "enabled").contains(v)) {
      return " (did you mean on?)";
    }
    return "";
  }

  private static String trimmed(String s) {
    return s == null || s.isBlank() ? null : s.trim();
  }

  private static Path defaultPlace() {
    if (FileSystems.getDefault().supportedFileAttributeViews().contains("unix")) {
      return Paths.get("/tmp", "snowid-claims");
    }
    return Paths.get(System.getProperty("java.io.tmpdir"), "snowid-claims");
  }

  /** Whether claims are taken. */
  boolean isOn() {
    return place != null;
  }

  /** Where the claims are, for messages; null when off. */
  Path place() {
    return place;
  }

  /**
   * Checks the place (creating it if a cleaner removed it); before an acquisition.
   *
   * @throws NodeIdUnavailableException naming the place, the reason and the fix, if another user
   *     could tamper with it or it cannot be created
   */
  void prepare() {
    if (place == null) {
      return;
    }
    try {
      checked = LeaseDirectory.openClaimPlace(place);
    } catch (LeaseDirectoryException e) {
      throw new NodeIdUnavailableException(
          "host-wide claims of file: leases in "
              + place
              + " refused: "
              + e.problem()
              + "; "
              + fix(e.path())
              + ". Without claims two lease directories of this host could hand out the same node"
              + " values: keep one lease directory per host, then turn them off with "
              + PROPERTY
              + "=off ("
              + VARIABLE
              + "=off)");
    }
  }

  /** The fix for a refusal at {@code at}: the place itself (its real path), or a folder above. */
  private String fix(Path at) {
    if (at.equals(place) || place.getFileName().equals(at.getFileName())) {
      return "as root, chown root "
          + at
          + " && chmod 1777 "
          + at
          + " (or remove it and create it as root beforehand: install -d -m 1777 "
          + at
          + ")";
    }
    return "as root, give " + at + " to root and take write access from other users";
  }

  /**
   * Claims {@code (key, id)} for this process: null if a live process (of any user, on any lease
   * directory of this host, or another holder in this JVM) holds it.
   *
   * @throws NodeIdUnavailableException if the place cannot be read or written
   */
  Claim take(String key, long id) {
    Path dir = checked;
    if (place == null) {
      return Claim.NONE;
    }
    if (dir == null) {
      throw new IllegalStateException("prepare() first");
    }
    String prefix = key + "@" + id + ".";
    long me = Integer.toUnsignedLong(uid());
    Path own = dir.resolve(prefix + me);
    try {
      return take(dir, prefix, me, own);
    } catch (IOException e) {
      throw new NodeIdUnavailableException("host-wide claim " + own + " failed: " + e);
    }
  }

  private static Claim take(Path dir, String prefix, long me, Path own) throws IOException {
    for (int attempt = 1; ; attempt++) {
      Claim c = lockOwn(own);
      if (c == null) {
        return null;
      }
      Path busy;
      try {
        busy = firstHeldOther(dir, prefix, me, c);
      } catch (IOException | RuntimeException e) {
        c.release();
        throw e;
      }
      if (busy == null) {
        return c;
      }
      c.release();
      if (attempt == MAX_ATTEMPTS || !letGoAfterPause(busy)) {
        return null;
      }
    }
  }

  /** Locks this user's claim file, creating it if missing; null if it is held or unusable. */
  private static Claim lockOwn(Path own) throws IOException {
    for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      BasicFileAttributes a;
      try {
        a = Files.readAttributes(own, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      } catch (NoSuchFileException e) {
        Claim created = createLocked(own);
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
      return new Claim(f);
    }
    return null;
  }

  /**
   * Creates this user's claim file locked before it appears at its path (a temporary file, locked,
   * then linked to the path); null if another process created it meanwhile.
   */
  private static Claim createLocked(Path own) throws IOException {
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
    return f == null ? null : new Claim(f);
  }

  /**
   * With this user's file locked: tests every other user's file of the same {@code (key, id)},
   * recording their high-water marks in {@code c}; the first held one, or null if none is.
   */
  private static Path firstHeldOther(Path dir, String prefix, long me, Claim c) throws IOException {
    c.see(readMark(c.channel), c.path, me);
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, prefix + "*")) {
      for (Path f : files) {
        String suffix = f.getFileName().toString().substring(prefix.length());
        if (!suffix.matches("0|[1-9][0-9]{0,9}") || Long.parseLong(suffix) == me) {
          continue;
        }
        long uid = Long.parseLong(suffix);
        BasicFileAttributes a;
        try {
          a = Files.readAttributes(f, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
          continue;
        }
        if (!a.isRegularFile() || owner(f) != uid) {
          continue; // not that user's: a fake, which says nothing
        }
        if (isHeld(f, LockedFile.keyOf(a, f), uid, c)) {
          return f;
        }
      }
    }
    return null;
  }

  /**
   * Whether another user's claim file is locked by a process, tested with a momentary shared lock;
   * if not, its high-water mark goes to {@code c} (null: only tested).
   */
  private static boolean isHeld(Path f, String key, long uid, Claim c) throws IOException {
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
      try (FileChannel open = ch) {
        FileLock probe;
        try {
          probe = open.tryLock(0, Long.MAX_VALUE, true);
        } catch (OverlappingFileLockException e) {
          LockedFile.quarantine(open);
          return true;
        }
        if (probe == null) {
          return true;
        }
        try (FileLock unused = probe) {
          if (c != null) {
            c.see(readMark(open), f, uid);
          }
        }
        return false;
      }
    } finally {
      ProcessFileClaims.release(key, f.toString());
    }
  }

  /**
   * After backing off from another user's held file: whether it is let go after a short random
   * pause (a racer that backed off too), so that trying again may win.
   */
  private static boolean letGoAfterPause(Path busy) throws IOException {
    LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(100_000, 2_000_000));
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(busy, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return true;
    }
    return !isHeld(busy, LockedFile.keyOf(a, busy), owner(busy), null);
  }

  /** What a claim file records: its holder's high-water mark and lease time. */
  private record Mark(long highWater, long ttlMillis) {
    /** A new file's: nothing recorded yet. */
    static final Mark NONE = new Mark(Long.MIN_VALUE, 0);

    String line() {
      return VERSION + " " + highWater + " " + ttlMillis;
    }
  }

  /** A claim file's mark: {@link Mark#NONE} for a new one, null if damaged. */
  private static Mark readMark(FileChannel ch) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(MAX_SIZE);
    while (buf.hasRemaining()) {
      if (ch.read(buf, buf.position()) < 0) {
        break;
      }
    }
    String text = new String(buf.array(), 0, buf.position(), UTF_8);
    if (text.isEmpty()) {
      return Mark.NONE;
    }
    String[] parts = text.strip().split(" ");
    if (parts.length != 4 || !parts[0].equals(Integer.toString(VERSION))) {
      return null; // damaged, or written by a newer snowid: what it says is unknown
    }
    try {
      Mark m = new Mark(Long.parseLong(parts[1]), Long.parseLong(parts[2]));
      return parts[3].equals(crc(m.line())) ? m : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static String crc(String text) {
    CRC32 crc = new CRC32();
    crc.update(text.getBytes(UTF_8));
    return Long.toString(crc.getValue());
  }

  private static int uid() {
    return LeaseDirectory.CurrentUser.uid();
  }

  /** The owner's uid of a file, unsigned; this user's without POSIX owners. */
  private static long owner(Path path) throws IOException {
    if (!UnixAttributes.supported(path)) {
      return Integer.toUnsignedLong(uid());
    }
    return Integer.toUnsignedLong(UnixAttributes.uid(path));
  }

  /**
   * One held claim: this user's locked claim file of one {@code (key, id)}, and the highest
   * high-water mark any user's claim file of it recorded when it was taken.
   */
  static final class Claim {
    /** The claim when claims are off: always held, records nothing. */
    static final Claim NONE = new Claim(null);

    /** The locked claim file; null when claims are off. */
    private final LockedFile file;

    private final FileChannel channel;
    private final Path path;
    private long highWater = Long.MIN_VALUE;
    private long ttlMillis;
    private Path highWaterFile;
    private int highWaterOwner = -1;
    private boolean damaged;

    private Claim(LockedFile file) {
      this.file = file;
      this.channel = file == null ? null : file.channel();
      this.path = file == null ? null : file.path();
    }

    private void see(Mark mark, Path file, long owner) {
      if (mark == null) {
        damaged = true;
        return;
      }
      ttlMillis = Math.max(ttlMillis, mark.ttlMillis());
      if (mark.highWater() > highWater) {
        highWater = mark.highWater();
        highWaterFile = file;
        highWaterOwner = (int) owner; // a uid's 32 bits, as LeaseDirectory.CurrentUser has them
      }
    }

    /**
     * The latest ID time any earlier holder of these node values recorded, on any lease directory
     * of this host; {@link Long#MIN_VALUE} if none.
     */
    long highWater() {
      return highWater;
    }

    /** The longest lease time those holders recorded; 0 if none. */
    long ttlMillis() {
      return ttlMillis;
    }

    /** The claim file that recorded {@link #highWater()}; null if none. */
    Path highWaterFile() {
      return highWaterFile;
    }

    /** The uid that owns {@link #highWaterFile()}; -1 if none. */
    int highWaterOwner() {
      return highWaterOwner;
    }

    /** Whether a claim file's mark could not be read: an earlier holder's times are unknown. */
    boolean damaged() {
      return damaged;
    }

    /** The claim file, for messages; null when claims are off. */
    Path path() {
      return path;
    }

    /**
     * Records the latest ID time this holder may issue up to, before it may, and its lease time;
     * forced to disk. Writing also keeps the file young for tmp cleaners.
     */
    void record(long highWaterMillis, long leaseMillis) throws IOException {
      if (channel == null) {
        return;
      }
      String line = new Mark(highWaterMillis, leaseMillis).line();
      byte[] text = (line + " " + crc(line) + "\n").getBytes(UTF_8);
      ByteBuffer buf = ByteBuffer.wrap(text);
      while (buf.hasRemaining()) {
        channel.write(buf, buf.position());
      }
      channel.truncate(text.length);
      channel.force(true);
      readBack();
    }

    /**
     * Reads the file through the held channel, which moves its access time past the write's
     * modification time (relatime): a cleaner that ages files by either leaves it. Setting the
     * times by path would open and close the file in this process, dropping its lock.
     */
    private void readBack() throws IOException {
      channel.read(ByteBuffer.allocate(1), 0);
    }

    /** Why this process no longer holds the claim at its path; null if it still does. */
    String lostBecause() throws IOException {
      if (channel == null) {
        return null;
      }
      if (!file.lock().isValid()) {
        return "its host-wide claim " + path + " was let go";
      }
      String now = LockedFile.keyAt(path);
      if (now == null) {
        return "its host-wide claim " + path + " was deleted";
      }
      if (!now.equals(file.key())) {
        return "its host-wide claim " + path + " was replaced by another file";
      }
      return null;
    }

    /** Lets the claim go: unlocks and closes the file (never deletes it). */
    void release() {
      if (file != null) {
        file.close();
      }
    }
  }
}
