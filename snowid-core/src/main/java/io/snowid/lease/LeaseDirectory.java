package io.snowid.lease;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Opens a {@code file:} lease directory and its namespace folders so that no other user can tamper
 * with them: what a lease means depends on its files staying where they are.
 *
 * <p>Refused, naming the path and the fix ({@link LeaseDirectoryException}):
 *
 * <ul>
 *   <li>a directory, or any folder above it, owned by a user other than this one or root;
 *   <li>a directory, or a folder above it, that others may write to without the sticky bit (they
 *       could rename or delete the lease files);
 *   <li>a symbolic link owned by another user where the directory should be (a planted link);
 *   <li>a path that is not a directory.
 * </ul>
 *
 * A directory writable by its group is accepted: the group is the operator's choice of who may
 * share it. On a file system without POSIX attributes (Windows) only the last rule is checked.
 */
final class LeaseDirectory {
  /*
   * The default directory <tmpdir>/snowid-leases is a predictable name in a world-writable /tmp:
   * another local user can create it first, or plant a symbolic link there to a folder they own,
   * and then delete or replace the lease files of every process that uses it. The checks follow
   * OpenSSH's StrictModes: every folder from the root down must be owned by root or by us and not
   * writable by others, except that a sticky folder (like /tmp) may be world-writable, since
   * others then cannot remove or rename what is not theirs.
   */
  private static final int OTHERS_WRITE = 0002;
  private static final int STICKY = 01000;

  private LeaseDirectory() {}

  /**
   * Creates (if needed) and checks a lease directory; returns its real path.
   *
   * @throws LeaseDirectoryException if it cannot be created or another user could tamper with it
   */
  static Path open(Path dir) {
    Path abs = dir.toAbsolutePath().normalize();
    try {
      createIfAbsent(abs);
      if (Files.isSymbolicLink(abs)) {
        requireTrusted(abs, "the symbolic link");
      }
      Path real = abs.toRealPath();
      if (!Files.isDirectory(real, LinkOption.NOFOLLOW_LINKS)) {
        throw new LeaseDirectoryException(abs, "is not a directory", "give a directory");
      }
      for (Path p = real; p != null; p = p.getParent()) {
        requireTrusted(p, p.equals(real) ? "it" : "the folder above it " + p);
      }
      return real;
    } catch (IOException e) {
      throw new LeaseDirectoryException(
          abs, "cannot be created or read (" + e + ")", "create it, or give another directory");
    }
  }

  /**
   * Creates (if needed) and checks a namespace folder directly inside an opened lease directory;
   * never follows a symbolic link.
   */
  static Path namespace(Path dir, String namespace) {
    Path ns = dir.resolve(namespace);
    try {
      createIfAbsent(ns);
      if (!Files.isDirectory(ns, LinkOption.NOFOLLOW_LINKS)) {
        throw new LeaseDirectoryException(
            ns,
            Files.isSymbolicLink(ns) ? "is a symbolic link" : "is not a directory",
            "remove it; snowid creates its namespace folders itself");
      }
      requireTrusted(ns, "it");
      return ns;
    } catch (IOException e) {
      throw new LeaseDirectoryException(
          ns, "cannot be created or read (" + e + ")", "check the lease directory's permissions");
    }
  }

  private static void createIfAbsent(Path p) throws IOException {
    if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    Path parent = p.getParent();
    if (parent != null && !Files.exists(parent)) {
      Files.createDirectories(parent);
    }
    try {
      if (supportsUnix(parent == null ? p : parent)) {
        Files.createDirectory(
            p, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
      } else {
        Files.createDirectory(p);
      }
    } catch (FileAlreadyExistsException e) {
      // created meanwhile by another process: checked like any existing directory
    }
  }

  private static void requireTrusted(Path p, String what) throws IOException {
    if (!supportsUnix(p)) {
      return;
    }
    int uid;
    int mode;
    try {
      uid = (Integer) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS);
      mode = (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      throw new LeaseDirectoryException(p, "disappeared while it was checked", "try again");
    }
    int me = CurrentUser.uid();
    if (uid != 0 && uid != me) {
      throw new LeaseDirectoryException(
          p,
          (what.equals("it") ? "is" : what + " is")
              + " owned by uid "
              + uid
              + ", neither this user (uid "
              + me
              + ") nor root, who could delete or replace its lease files",
          "remove it if you did not create it, or give a directory of your own with"
              + " --node file:DIR (snowid.node / SNOWID_NODE)");
    }
    boolean symlink = (mode & 0170000) == 0120000;
    if (!symlink && (mode & OTHERS_WRITE) != 0 && (mode & STICKY) == 0) {
      throw new LeaseDirectoryException(
          p,
          (what.equals("it") ? "is" : what + " is")
              + " writable by every user (mode "
              + String.format("%04o", mode & 07777)
              + "), who could delete or replace its lease files",
          "chmod o-w " + p + " (or chmod +t for a shared folder like /tmp)");
    }
  }

  private static boolean supportsUnix(Path p) {
    return p.getFileSystem().supportedFileAttributeViews().contains("unix");
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
          return (Integer) Files.getAttribute(self, "unix:uid");
        }
        Path probe = Files.createTempFile("snowid-uid", ".probe");
        try {
          return (Integer) Files.getAttribute(probe, "unix:uid");
        } finally {
          Files.deleteIfExists(probe);
        }
      } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
        return -1;
      }
    }
  }
}
