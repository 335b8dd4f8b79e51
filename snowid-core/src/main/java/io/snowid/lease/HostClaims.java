package io.snowid.lease;

import io.snowid.InvalidSettingException;
import io.snowid.node.NodeIdUnavailableException;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.UnaryOperator;

/**
 * Host-wide claims of {@code file:} leases: a holder of node id {@code id} of namespace {@code key}
 * in any lease directory also claims {@code (key, id)} in one place shared by the whole host, so a
 * process on another lease directory of the host cannot take the same node values while it lives.
 *
 * <p>The place is {@link #PLACE} ({@code /tmp/snowid-claims}), whatever the lease directory and
 * {@code java.io.tmpdir}; it is checked as a lease directory is ({@link LeaseDirectory}). A claim
 * is the file {@code <place>/<key>@<id>.<uid>}, one per user ({@link ClaimFiles}). A process claims
 * by locking its own user's file, then testing every other user's file of that {@code (key, id)}:
 * if one is held, it lets its own go and the id counts as taken; two racers both back off, and try
 * again after a short random pause. The holder records its high-water mark in its file ({@link
 * HostClaim}) before it may issue, so that a newcomer on another directory starts after the ID
 * times any holder of those values may have used.
 *
 * <p>On by default; {@code snowid.host-claim=off} (or {@code SNOWID_HOST_CLAIM=off}) turns it off.
 * Why one file per user, why flat, and what tmp cleaners do: docs/design.md, "Host-wide claims".
 */
final class HostClaims {
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
  HostClaim take(String key, long id) {
    Path dir = checked;
    if (place == null) {
      return HostClaim.NONE;
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

  private static HostClaim take(Path dir, String prefix, long me, Path own) throws IOException {
    for (int attempt = 1; ; attempt++) {
      HostClaim c = ClaimFiles.lockOwn(own);
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

  /**
   * With this user's file locked: tests every other user's file of the same {@code (key, id)},
   * recording their high-water marks in {@code c}; the first held one, or null if none is.
   */
  private static Path firstHeldOther(Path dir, String prefix, long me, HostClaim c)
      throws IOException {
    c.see(ClaimMark.read(c.channel()), c.path(), me);
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
        if (!a.isRegularFile() || ClaimFiles.owner(f) != uid) {
          continue; // not that user's: a fake, which says nothing
        }
        if (ClaimFiles.isHeld(f, LockedFile.keyOf(a, f), uid, c)) {
          return f;
        }
      }
    }
    return null;
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
    return !ClaimFiles.isHeld(busy, LockedFile.keyOf(a, busy), ClaimFiles.owner(busy), null);
  }

  private static int uid() {
    return LeaseDirectory.CurrentUser.uid();
  }
}
