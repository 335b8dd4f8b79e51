package io.snowid.lease;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Opens a {@code file:} lease directory and its namespace folders so that no other user can tamper
 * with them: what a lease means depends on its files staying where they are.
 *
 * <p>The path is walked one component at a time from the root, as the kernel resolves it ({@code
 * ..} after a symbolic link goes to the parent of the link's target), and each component is checked
 * before anything below it is used or created. Refused, in one sentence naming the directory, the
 * component, why and the fix ({@link LeaseDirectoryException}):
 *
 * <ul>
 *   <li>the directory, or any folder on its path, owned by a user other than this one or root;
 *   <li>the directory, or any folder on its path, that others may write to without the sticky bit
 *       (they could rename or delete the lease files, or what leads to them);
 *   <li>a symbolic link anywhere on the path (the directory itself, or a folder above it) owned by
 *       a user other than this one or root: that user could point it elsewhere later, and later
 *       processes would use another directory. A link of this user or root is followed, and the
 *       path it holds is walked and checked in the same way;
 *   <li>a component that is not a directory (a regular file, fifo, …);
 *   <li>more than {@value #MAX_LINKS} symbolic links (a loop).
 * </ul>
 *
 * Missing folders are created one at a time, only below a prefix that passed, and each is checked
 * once created (another process may have created it meanwhile). So nothing is created under a path
 * that is refused. A directory writable by its group is accepted: the group is the operator's
 * choice of who may share it. On a file system without POSIX attributes (Windows) only the rule
 * that the directory must be a directory is checked.
 *
 * <p><b>Several users.</b> One lease directory serves every user of a host, so that no two of their
 * processes share a node id (a directory per user would let them). A lease directory snowid creates
 * in a sticky, world-writable folder (like {@code /tmp}, where the default is) gets mode {@code
 * 1777}, as {@code /tmp} itself: every user may create lease files in it, and the sticky bit keeps
 * them from deleting or renaming each other's. Elsewhere it gets {@code 0755}. Namespace folders
 * get the sharing of their lease directory: {@code 1777} in a shared one, {@code 3775} in one
 * writable by its group, else {@code 0755}, created with that mode at once. A shared namespace
 * folder (sticky and world-writable, or writable by the group of a group-writable lease directory)
 * is accepted whoever owns it; its lease files are used only when they belong to this user or root
 * (FileLeaseCoordinator). The lease directory itself must belong to root or this user, shared or
 * not: it holds the records that bound every user's newcomers (NamespaceMarks). A lease directory
 * or namespace folder that is not shared, or that this user cannot write to, is refused with the
 * {@code chmod}/{@code chgrp} that would share it.
 */
final class LeaseDirectory {
  /*
   * The default directory <tmpdir>/snowid-leases is a predictable name in a world-writable /tmp:
   * another local user can create it first, or plant a symbolic link there (or anywhere on the
   * path) to a folder they own or re-point later, and then delete or replace the lease files of
   * every process that uses it. The checks follow OpenSSH's StrictModes and safe_path: every
   * folder and link from the root down must be owned by root or by us, and no folder writable by
   * others, except that a sticky folder (like /tmp) may be world-writable, since others then cannot
   * remove or rename what is not theirs. Once a component passed, only this user, root (or the
   * members of a group-writable folder's group, the operator's choice) can replace it, so the walk
   * is not raced by another user while it checks and creates below it.
   *
   * Shared namespace folders (several users of one host: docs/design.md, "The `file:` backend") are
   * the one exception to "owned by this user or root": sticky and world-writable, or writable by
   * the group of a group-writable lease directory. Their owner can still rename or delete what is
   * inside; a holder detects that at its next renewal and stops, and a newcomer waits the longest
   * lease time any user recorded and starts after every recorded high-water mark, records kept in
   * the lease directory (NamespaceMarks) where that owner cannot delete them. So the lease
   * directory itself must belong to root or this user: only they (and root) can then cause a
   * duplicate, and a directory created beforehand by root (systemd-tmpfiles, install -d) leaves no
   * user that power.
   */
  static final int MAX_LINKS = 40;

  private static final int OTHERS_WRITE = 0002;
  private static final int GROUP_WRITE = 0020;
  private static final int STICKY = 01000;
  private static final int SHARED = 01777;
  private static final int GROUP_SHARED = 03775;
  private static final int TYPE = 0170000;
  private static final int DIRECTORY = 0040000;
  private static final int SYMBOLIC_LINK = 0120000;
  private static final int MAX_ATTEMPTS = 3;
  private static final String NODE = "--node file:DIR (snowid.node / SNOWID_NODE)";
  private static final FileAttribute<?> MODE_0755 =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x"));

  private LeaseDirectory() {}

  /**
   * Checks a lease directory and every component of its path, creating what is missing; returns its
   * real path.
   *
   * @throws LeaseDirectoryException if it cannot be created or another user could tamper with it
   */
  static Path open(Path dir) {
    Path requested = dir.toAbsolutePath();
    if (!UnixAttributes.supported(requested)) {
      return openWithoutOwners(requested);
    }
    return new Walk(requested).run();
  }

  /**
   * Checks the place of the host-wide claims ({@link HostClaims}) as a lease directory, creating
   * what is missing: its files are claim files; returns its real path.
   *
   * @throws LeaseDirectoryException if it cannot be created or another user could tamper with it
   */
  static Path openClaimPlace(Path place) {
    Path requested = place.toAbsolutePath();
    if (!UnixAttributes.supported(requested)) {
      return openWithoutOwners(requested);
    }
    Walk walk = new Walk(requested);
    walk.files = "claim files";
    return walk.run();
  }

  /**
   * Creates (if needed) and checks a namespace folder directly inside an opened lease directory;
   * never follows a symbolic link.
   */
  static Path namespace(Path dir, String namespace) {
    if (!LeaseNames.isFolderName(dir, namespace)) {
      throw new LeaseDirectoryException(
          dir,
          dir,
          "its namespace folder name \"" + namespace + "\" is not the name of a folder inside it",
          "give a namespace of " + LeaseNames.CHARACTERS + " other than . and ..");
    }
    Path ns = dir.resolve(namespace);
    if (!UnixAttributes.supported(ns)) {
      return namespaceWithoutOwners(dir, ns);
    }
    Walk walk = new Walk(dir);
    walk.leaseDirectory = walk.stat(dir, Role.DIRECTORY);
    for (int attempt = 1; ; attempt++) {
      Stat s = walk.stat(ns, Role.NAMESPACE);
      if (s != null) {
        if (!s.isDirectory()) {
          throw walk.notADirectory(ns, s, Role.NAMESPACE);
        }
        walk.checkDirectory(ns, s, Role.NAMESPACE);
        return ns;
      }
      walk.create(ns, Role.NAMESPACE, attempt);
    }
  }

  /** Where a component stands: it names it in a refusal and chooses the fix. */
  private enum Role {
    /** The lease directory itself (the last component). */
    DIRECTORY,
    /** A folder or link on the path to it. */
    ABOVE,
    /** A namespace folder inside an opened lease directory. */
    NAMESPACE
  }

  /** The owner, group and mode of a path, not following a symbolic link. */
  private record Stat(int uid, int gid, int mode) {
    /** Sticky and writable by every user, like /tmp: a folder of several users. */
    boolean isSharedByAll() {
      return (mode & (STICKY | OTHERS_WRITE)) == (STICKY | OTHERS_WRITE);
    }

    boolean isGroupWritable() {
      return (mode & GROUP_WRITE) != 0;
    }

    boolean isDirectory() {
      return (mode & TYPE) == DIRECTORY;
    }

    boolean isLink() {
      return (mode & TYPE) == SYMBOLIC_LINK;
    }

    String type() {
      return switch (mode & TYPE) {
        case 0100000 -> "regular file";
        case 0010000 -> "fifo";
        case 0140000 -> "socket";
        case 0020000 -> "character device";
        case 0060000 -> "block device";
        case SYMBOLIC_LINK -> "symbolic link";
        default -> String.format("file of type %06o", mode & TYPE);
      };
    }

    String permissions() {
      return String.format("%04o", mode & 07777);
    }
  }

  /** The walk down the path of one lease directory, like the kernel's, checking as it goes. */
  private static final class Walk {
    private final Path requested;
    private final int me = CurrentUser.uid();

    /** The names still to walk, next first. */
    private final Deque<String> names = new ArrayDeque<>();

    /** The real path walked so far: a directory that passed, as did every folder above it. */
    private Path current;

    /** What {@link #current} is. */
    private Stat currentStat;

    /** The lease directory, when the walk checks a namespace folder inside it. */
    Stat leaseDirectory;

    private int links;

    /** What the directory holds, in a refusal. */
    String files = "lease files";

    Walk(Path requested) {
      this.requested = requested;
    }

    Path run() {
      current = requested.getRoot();
      pushFront(requested);
      Stat root = stat(current, role());
      if (root == null || !root.isDirectory()) {
        throw refuse(
            current,
            "its root " + current + " is not a directory",
            "give another directory with " + NODE);
      }
      checkDirectory(current, root, role());
      currentStat = root;
      while (!names.isEmpty()) {
        String name = names.removeFirst();
        if (name.equals("..")) {
          if (current.getParent() != null) {
            current = current.getParent(); // a real path: its parent is the physical one
            currentStat = stat(current, Role.ABOVE);
          }
          continue;
        }
        step(current.resolve(name));
      }
      return current;
    }

    /** The role of the component about to be walked: the directory when no name follows it. */
    private Role role() {
      return names.isEmpty() ? Role.DIRECTORY : Role.ABOVE;
    }

    private void pushFront(Path path) {
      List<String> parts = new ArrayList<>();
      for (Path name : path) {
        String s = name.toString();
        if (!s.isEmpty() && !s.equals(".")) {
          parts.add(s);
        }
      }
      for (int i = parts.size() - 1; i >= 0; i--) {
        names.addFirst(parts.get(i));
      }
    }

    private void step(Path next) {
      Role role = role();
      for (int attempt = 1; ; attempt++) {
        Stat s = stat(next, role);
        if (s == null) {
          create(next, role, attempt);
          continue;
        }
        if (s.isLink()) {
          follow(next, s, role);
        } else if (s.isDirectory()) {
          checkDirectory(next, s, role);
          current = next;
          currentStat = s;
        } else {
          throw notADirectory(next, s, role);
        }
        return;
      }
    }

    private void follow(Path link, Stat s, Role role) {
      if (!trusted(s.uid())) {
        throw refuse(
            link,
            (role == Role.DIRECTORY
                    ? it(link) + " is a symbolic link owned by uid "
                    : "the symbolic link " + link + " on its path is owned by uid ")
                + s.uid()
                + ", not by this user (uid "
                + me
                + ") or root, who could point it elsewhere",
            role == Role.DIRECTORY
                ? "remove "
                    + link
                    + " if you did not create it, or give a directory of your own with "
                    + NODE
                : "choose a lease directory whose folders and symbolic links all belong to this"
                    + " user or root, with "
                    + NODE);
      }
      if (++links > MAX_LINKS) {
        throw refuse(
            link,
            "its path leads through more than " + MAX_LINKS + " symbolic links",
            "give a path without a loop of symbolic links, with " + NODE);
      }
      Path target;
      try {
        target = Files.readSymbolicLink(link);
      } catch (IOException e) {
        throw cannotRead(link, role, e);
      }
      if (target.isAbsolute()) {
        current = target.getRoot(); // checked when the walk began
        currentStat = stat(current, Role.ABOVE);
      }
      pushFront(target); // a relative target is walked from the link's folder, `current`
    }

    /**
     * Creates a missing folder; its caller then checks it like any existing one. Mode {@code 0755},
     * except that a lease directory in a folder shared by all (like /tmp) is shared by all too
     * ({@code 1777}), and a namespace folder gets its lease directory's sharing ({@code 1777} or
     * {@code 3775}). That mode is set before it appears at its path, so the umask does not narrow
     * it.
     */
    void create(Path p, Role role, int attempt) {
      if (attempt > MAX_ATTEMPTS) {
        throw refuse(p, subject(p, role) + " disappeared while it was checked", "try again");
      }
      int mode = 0;
      if (role == Role.DIRECTORY && currentStat != null && currentStat.isSharedByAll()) {
        mode = SHARED;
      } else if (role == Role.NAMESPACE && leaseDirectory != null) {
        if (leaseDirectory.isSharedByAll()) {
          mode = SHARED;
        } else if (leaseDirectory.isGroupWritable()) {
          mode = GROUP_SHARED;
        }
      }
      try {
        if (mode == 0) {
          Files.createDirectory(p, MODE_0755);
        } else {
          createShared(p, mode);
        }
      } catch (FileAlreadyExistsException e) {
        // created meanwhile by another process: checked like any existing one
      } catch (IOException e) {
        throw refuse(
            p,
            subject(p, role) + " cannot be created (" + describe(e) + ")",
            role == Role.NAMESPACE
                ? "let this user create folders in " + p.getParent()
                : "create " + p + ", or give another directory with " + NODE);
      }
    }

    /**
     * Creates a shared folder with its final mode at once: made under a temporary name, given its
     * mode, then renamed into place. So no process ever sees it with the umask's mode, which
     * another user would be refused (it could not write to it). The loser of a race to create it
     * uses the winner's. A rename replaces an empty folder: then the winner's, still empty, is
     * replaced by one of the same mode that the winner's next check finds as shared.
     */
    private void createShared(Path p, int mode) throws IOException {
      Path temp = p.resolveSibling("." + p.getFileName() + "." + UUID.randomUUID() + ".new");
      Files.createDirectory(temp, MODE_0755);
      try {
        Files.setAttribute(temp, "unix:mode", mode, LinkOption.NOFOLLOW_LINKS);
        Files.move(temp, p, StandardCopyOption.ATOMIC_MOVE);
      } catch (IOException e) {
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
          throw e;
        }
        // created meanwhile by another process: checked like any existing one
      } finally {
        Files.deleteIfExists(temp);
      }
    }

    /** The owner and mode of a path, or null if it does not exist. */
    Stat stat(Path p, Role role) {
      try {
        Map<String, Object> a =
            Files.readAttributes(p, "unix:uid,gid,mode", LinkOption.NOFOLLOW_LINKS);
        return new Stat((Integer) a.get("uid"), (Integer) a.get("gid"), (Integer) a.get("mode"));
      } catch (NoSuchFileException e) {
        return null;
      } catch (IOException e) {
        throw cannotRead(p, role, e);
      }
    }

    void checkDirectory(Path p, Stat s, Role role) {
      if (role == Role.DIRECTORY && !trusted(s.uid()) && isShared(s, role)) {
        // Its owner may delete any file in it, among them the records that bound a newcomer of
        // another user (NamespaceMarks): only root or this user may own it.
        throw refuse(
            p,
            it(p)
                + " is shared by the users of this host but owned by uid "
                + s.uid()
                + ", not by root or this user (uid "
                + me
                + "), who could delete the records that keep other users' processes from sharing"
                + " a node id",
            "as root, chown root "
                + p
                + " (or create it as root beforehand: install -d -m 1777 "
                + p
                + "); else give a directory of your own with "
                + NODE);
      }
      if (role == Role.DIRECTORY
          && s.isGroupWritable()
          && (s.mode() & OTHERS_WRITE) == 0
          && (s.mode() & STICKY) == 0) {
        // Every member of its group could delete the records of every other (NamespaceMarks).
        throw refuse(
            p,
            it(p)
                + " is writable by its group "
                + s.gid()
                + " without the sticky bit (mode "
                + s.permissions()
                + "), so any member could delete the records that keep the others' processes from"
                + " sharing a node id",
            "chmod +t " + p + " as " + (s.uid() == 0 ? "root" : "uid " + s.uid() + " or root"));
      }
      boolean shared = role != Role.ABOVE && isShared(s, role);
      if (!trusted(s.uid()) && !shared) {
        throw refuse(
            p,
            subject(p, role)
                + " is owned by uid "
                + s.uid()
                + ", not by this user (uid "
                + me
                + ") or root, who could "
                + (role == Role.ABOVE
                    ? "replace everything below it"
                    : "delete or replace its "
                        + files
                        + ", and it is not shared by the users of"
                        + " this host (mode "
                        + s.permissions()
                        + ")"),
            switch (role) {
              case DIRECTORY ->
                  "to share it among them, as root: chown root "
                      + p
                      + " && chmod 1777 "
                      + p
                      + " "
                      + p
                      + "/*/; else remove it if you did not create it, or give a directory"
                      + " of your own with "
                      + NODE;
              case ABOVE ->
                  "choose a lease directory whose folders all belong to this user or"
                      + " root, with "
                      + NODE;
              case NAMESPACE ->
                  "to share it among them, "
                      + (leaseDirectory != null
                              && !leaseDirectory.isSharedByAll()
                              && leaseDirectory.isGroupWritable()
                          ? "chgrp " + leaseDirectory.gid() + " " + p + " and chmod 3775 " + p
                          : "chmod 1777 " + p)
                      + " as uid "
                      + s.uid()
                      + " or root; else remove it if you did not create it";
            });
      }
      if ((s.mode() & OTHERS_WRITE) != 0 && (s.mode() & STICKY) == 0) {
        throw refuse(
            p,
            subject(p, role)
                + " is writable by every user (mode "
                + s.permissions()
                + (role == Role.ABOVE
                    ? ") without the sticky bit, so anyone could replace everything below it"
                    : "), who could delete or replace its " + files),
            role == Role.ABOVE
                ? "chmod o-w "
                    + p
                    + " (or chmod +t "
                    + p
                    + " for a shared folder like /tmp), or choose a lease directory whose folders"
                    + " all belong to this user or root, with "
                    + NODE
                : "chmod +t " + p + " to share it among the users of this host, or chmod o-w " + p);
      }
      if (role != Role.ABOVE && !Files.isWritable(p)) {
        throw refuse(
            p,
            subject(p, role)
                + " cannot be written by this user (uid "
                + me
                + "; it belongs to "
                + UnixAttributes.ownerName(s.uid())
                + ", group "
                + s.gid()
                + ", mode "
                + s.permissions()
                + ")",
            s.uid() == me
                ? "chmod u+w " + p
                : "to share it among the users of this host, chmod 1777 "
                    + p
                    + (role == Role.DIRECTORY ? " " + p + "/*/" : "")
                    + " as root; among the members of a group (this user one of them), chgrp "
                    + (role == Role.DIRECTORY ? "-R " : "")
                    + "GROUP "
                    + p
                    + " and chmod 3775 "
                    + p
                    + (role == Role.DIRECTORY ? " " + p + "/*/" : ""));
      }
    }

    /**
     * Whether a folder is shared by several users: a lease directory or namespace folder that is
     * sticky and world-writable, or a namespace folder writable by the group of a group-writable
     * lease directory.
     */
    private boolean isShared(Stat s, Role role) {
      if (s.isSharedByAll()) {
        return true;
      }
      return role == Role.NAMESPACE
          && leaseDirectory != null
          && leaseDirectory.isGroupWritable()
          && s.isGroupWritable()
          && s.gid() == leaseDirectory.gid()
          && (s.mode() & OTHERS_WRITE) == 0;
    }

    LeaseDirectoryException notADirectory(Path p, Stat s, Role role) {
      String owner =
          s.uid() == me
              ? "this user (uid " + me + ")"
              : UnixAttributes.ownerName(s.uid()) + " (this user is uid " + me + ")";
      String problem =
          (role == Role.ABOVE ? p + " on its path" : subject(p, role))
              + " is a "
              + s.type()
              + ", not a directory, owned by "
              + owner;
      String fix;
      if (role == Role.NAMESPACE) {
        fix = "remove " + p + " (snowid creates its namespace folders itself)";
      } else if (trusted(s.uid())) {
        fix = "give another directory with " + NODE;
      } else {
        fix = "remove " + p + " if you did not create it, or give another directory with " + NODE;
      }
      return refuse(p, problem, fix);
    }

    private LeaseDirectoryException cannotRead(Path p, Role role, IOException e) {
      return refuse(
          p,
          (role == Role.ABOVE ? p + " on its path" : subject(p, role))
              + " cannot be read ("
              + describe(e)
              + ")",
          role == Role.NAMESPACE
              ? "let this user read " + p.getParent()
              : "give a directory this user can reach, with " + NODE);
    }

    private boolean trusted(int uid) {
      return uid == 0 || uid == me;
    }

    /** How a refusal names a folder in its role. */
    private String subject(Path p, Role role) {
      return switch (role) {
        case DIRECTORY -> it(p);
        case ABOVE -> "the folder " + p + " on its path";
        case NAMESPACE -> "its namespace folder " + p;
      };
    }

    /** The directory itself; its real path too when that differs from the path asked for. */
    private String it(Path p) {
      return p.equals(requested) ? "it" : "it (" + p + ")";
    }

    private LeaseDirectoryException refuse(Path p, String problem, String fix) {
      return new LeaseDirectoryException(requested, p, problem, fix);
    }
  }

  private static Path openWithoutOwners(Path requested) {
    try {
      Files.createDirectories(requested);
    } catch (FileAlreadyExistsException e) {
      // not a directory: refused below
    } catch (IOException e) {
      throw new LeaseDirectoryException(
          requested,
          "it cannot be created (" + describe(e) + ")",
          "create it, or give another directory with " + NODE);
    }
    if (!Files.isDirectory(requested)) {
      throw new LeaseDirectoryException(
          requested, "it is not a directory", "give another directory with " + NODE);
    }
    try {
      return requested.toRealPath();
    } catch (IOException e) {
      throw new LeaseDirectoryException(
          requested,
          "it cannot be read (" + describe(e) + ")",
          "give a directory this user can reach, with " + NODE);
    }
  }

  private static Path namespaceWithoutOwners(Path dir, Path ns) {
    try {
      Files.createDirectory(ns);
    } catch (FileAlreadyExistsException e) {
      // checked below
    } catch (IOException e) {
      throw new LeaseDirectoryException(
          dir,
          ns,
          "its namespace folder " + ns + " cannot be created (" + describe(e) + ")",
          "let this user create folders in " + dir);
    }
    if (!Files.isDirectory(ns, LinkOption.NOFOLLOW_LINKS)) {
      throw new LeaseDirectoryException(
          dir,
          ns,
          "its namespace folder "
              + ns
              + (Files.isSymbolicLink(ns) ? " is a symbolic link" : " is not a directory"),
          "remove " + ns + " (snowid creates its namespace folders itself)");
    }
    return ns;
  }

  private static String describe(IOException e) {
    String reason = e instanceof FileSystemException f ? f.getReason() : e.getMessage();
    return e.getClass().getSimpleName() + (reason == null ? "" : ": " + reason);
  }

  /** The user id of this process: the owner of a file it creates. */
  static final class CurrentUser {
    private static final int UID = read();

    private CurrentUser() {}

    static int uid() {
      return UID;
    }

    private static int read() {
      try {
        Path self = Paths.get("/proc/self");
        if (Files.exists(self)) {
          return UnixAttributes.uidFollowingLinks(self);
        }
        Path probe = Files.createTempFile("snowid-uid", ".probe");
        try {
          return UnixAttributes.uidFollowingLinks(probe);
        } finally {
          Files.deleteIfExists(probe);
        }
      } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
        return -1;
      }
    }
  }
}
