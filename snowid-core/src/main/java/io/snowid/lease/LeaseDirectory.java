package io.snowid.lease;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;

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
 *   <li>more than {@value DirectoryWalk#MAX_LINKS} symbolic links (a loop).
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
 *
 * <p>The walk is {@link DirectoryWalk}, the rules and refusals {@link FolderRules}; why these rules
 * (OpenSSH's StrictModes, and the one exception for shared namespace folders): docs/design.md, "The
 * {@code file:} backend".
 */
final class LeaseDirectory {
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
    return new DirectoryWalk(requested, "lease files").run();
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
    return new DirectoryWalk(requested, "claim files").run();
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
    return new DirectoryWalk(dir, "lease files").namespace(ns);
  }

  private static Path openWithoutOwners(Path requested) {
    try {
      Files.createDirectories(requested);
    } catch (FileAlreadyExistsException e) {
      // not a directory: refused below
    } catch (IOException e) {
      throw new LeaseDirectoryException(
          requested,
          "it cannot be created (" + FolderRules.describe(e) + ")",
          "create it, or give another directory with " + FolderRules.NODE);
    }
    if (!Files.isDirectory(requested)) {
      throw new LeaseDirectoryException(
          requested, "it is not a directory", "give another directory with " + FolderRules.NODE);
    }
    try {
      return requested.toRealPath();
    } catch (IOException e) {
      throw new LeaseDirectoryException(
          requested,
          "it cannot be read (" + FolderRules.describe(e) + ")",
          "give a directory this user can reach, with " + FolderRules.NODE);
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
          "its namespace folder " + ns + " cannot be created (" + FolderRules.describe(e) + ")",
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
