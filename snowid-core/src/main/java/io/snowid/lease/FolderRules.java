package io.snowid.lease;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Which folders on a lease directory's path, and which namespace folders in it, no other user can
 * tamper with; the refusal of any other, naming it, why and the fix; and the mode a missing one is
 * created with ({@link LeaseDirectory} has the rules, docs/design.md "The {@code file:} backend"
 * the reasons). Most of this class is the text of its refusals, one sentence each.
 */
final class FolderRules {
  /** Where a refusal tells the user to give another directory. */
  static final String NODE = "--node file:DIR (snowid.node / SNOWID_NODE)";

  /** A lease directory in a folder shared by all, or a namespace folder of such a directory. */
  static final int SHARED = 01777;

  /** A namespace folder of a group-writable lease directory. */
  static final int GROUP_SHARED = 03775;

  private final Path requested;
  private final int me = LeaseDirectory.CurrentUser.uid();

  /** What the directory holds, in a refusal. */
  private final String files;

  /** The lease directory, when namespace folders inside it are checked; else null. */
  private FolderStat leaseDirectory;

  /**
   * @param requested the directory as asked for, which every refusal names
   * @param files what the directory holds, in a refusal
   */
  FolderRules(Path requested, String files) {
    this.requested = requested;
    this.files = files;
  }

  /** Checks namespace folders inside the lease directory {@code s} from now on. */
  void insideLeaseDirectory(FolderStat s) {
    leaseDirectory = s;
  }

  /**
   * The mode of a missing folder: {@code 0} for {@code 0755}; a lease directory in a folder shared
   * by all (like /tmp) is shared by all too, a namespace folder gets its lease directory's sharing.
   *
   * @param parent the folder it is created in
   */
  int modeOfNew(FolderRole role, FolderStat parent) {
    if (role == FolderRole.DIRECTORY && parent != null && parent.isSharedByAll()) {
      return SHARED;
    } else if (role == FolderRole.NAMESPACE && leaseDirectory != null) {
      if (leaseDirectory.isSharedByAll()) {
        return SHARED;
      } else if (leaseDirectory.isGroupWritable()) {
        return GROUP_SHARED;
      }
    }
    return 0;
  }

  /**
   * Refuses a directory in its role that another user could tamper with, or this user cannot write
   * to.
   */
  void checkDirectory(Path p, FolderStat s, FolderRole role) {
    if (role == FolderRole.DIRECTORY && !trusted(s.uid()) && isShared(s, role)) {
      // Its owner may delete any file in it, among them the records that bound a newcomer of
      // another user (NamespaceMarks): only root or this user may own it.
      throw sharedButOwnedByAnother(p, s);
    }
    if (role == FolderRole.DIRECTORY
        && s.isGroupWritable()
        && (s.mode() & FolderStat.OTHERS_WRITE) == 0
        && (s.mode() & FolderStat.STICKY) == 0) {
      // Every member of its group could delete the records of every other (NamespaceMarks).
      throw groupWritableWithoutSticky(p, s);
    }
    boolean shared = role != FolderRole.ABOVE && isShared(s, role);
    if (!trusted(s.uid()) && !shared) {
      throw ownedByAnother(p, s, role);
    }
    if (s.isWritableByAllWithoutSticky()) {
      throw writableByAll(p, s, role);
    }
    if (role != FolderRole.ABOVE && !Files.isWritable(p)) {
      throw notWritable(p, s, role);
    }
  }

  /**
   * Whether a folder is shared by several users: a lease directory or namespace folder that is
   * sticky and world-writable, or a namespace folder writable by the group of a group-writable
   * lease directory.
   */
  private boolean isShared(FolderStat s, FolderRole role) {
    if (s.isSharedByAll()) {
      return true;
    }
    return role == FolderRole.NAMESPACE
        && leaseDirectory != null
        && leaseDirectory.isGroupWritable()
        && s.isGroupWritable()
        && s.gid() == leaseDirectory.gid()
        && (s.mode() & FolderStat.OTHERS_WRITE) == 0;
  }

  /** Whether a uid is this user or root, the only owners no other user can overrule. */
  boolean trusted(int uid) {
    return uid == 0 || uid == me;
  }

  private LeaseDirectoryException sharedButOwnedByAnother(Path p, FolderStat s) {
    return refuse(
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

  private LeaseDirectoryException groupWritableWithoutSticky(Path p, FolderStat s) {
    return refuse(
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

  private LeaseDirectoryException ownedByAnother(Path p, FolderStat s, FolderRole role) {
    return refuse(
        p,
        subject(p, role)
            + " is owned by uid "
            + s.uid()
            + ", not by this user (uid "
            + me
            + ") or root, who could "
            + (role == FolderRole.ABOVE
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

  private LeaseDirectoryException writableByAll(Path p, FolderStat s, FolderRole role) {
    return refuse(
        p,
        subject(p, role)
            + " is writable by every user (mode "
            + s.permissions()
            + (role == FolderRole.ABOVE
                ? ") without the sticky bit, so anyone could replace everything below it"
                : "), who could delete or replace its " + files),
        role == FolderRole.ABOVE
            ? "chmod o-w "
                + p
                + " (or chmod +t "
                + p
                + " for a shared folder like /tmp), or choose a lease directory whose folders"
                + " all belong to this user or root, with "
                + NODE
            : "chmod +t " + p + " to share it among the users of this host, or chmod o-w " + p);
  }

  private LeaseDirectoryException notWritable(Path p, FolderStat s, FolderRole role) {
    return refuse(
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
                + (role == FolderRole.DIRECTORY ? " " + p + "/*/" : "")
                + " as root; among the members of a group (this user one of them), chgrp "
                + (role == FolderRole.DIRECTORY ? "-R " : "")
                + "GROUP "
                + p
                + " and chmod 3775 "
                + p
                + (role == FolderRole.DIRECTORY ? " " + p + "/*/" : ""));
  }

  /** The root of the path is not a directory. */
  LeaseDirectoryException rootNotADirectory(Path root) {
    return refuse(
        root, "its root " + root + " is not a directory", "give another directory with " + NODE);
  }

  /** A symbolic link on the path owned by another user, who could point it elsewhere. */
  LeaseDirectoryException linkOwnedByAnother(Path link, FolderStat s, FolderRole role) {
    return refuse(
        link,
        (role == FolderRole.DIRECTORY
                ? it(link) + " is a symbolic link owned by uid "
                : "the symbolic link " + link + " on its path is owned by uid ")
            + s.uid()
            + ", not by this user (uid "
            + me
            + ") or root, who could point it elsewhere",
        role == FolderRole.DIRECTORY
            ? "remove "
                + link
                + " if you did not create it, or give a directory of your own with "
                + NODE
            : "choose a lease directory whose folders and symbolic links all belong to this"
                + " user or root, with "
                + NODE);
  }

  /** More than {@code max} symbolic links on the path: a loop. */
  LeaseDirectoryException tooManyLinks(Path link, int max) {
    return refuse(
        link,
        "its path leads through more than " + max + " symbolic links",
        "give a path without a loop of symbolic links, with " + NODE);
  }

  /** A folder that was missing again after every attempt to create it. */
  LeaseDirectoryException disappeared(Path p, FolderRole role) {
    return refuse(p, subject(p, role) + " disappeared while it was checked", "try again");
  }

  LeaseDirectoryException cannotCreate(Path p, FolderRole role, IOException e) {
    return refuse(
        p,
        subject(p, role) + " cannot be created (" + describe(e) + ")",
        role == FolderRole.NAMESPACE
            ? "let this user create folders in " + p.getParent()
            : "create " + p + ", or give another directory with " + NODE);
  }

  LeaseDirectoryException notADirectory(Path p, FolderStat s, FolderRole role) {
    String owner =
        s.uid() == me
            ? "this user (uid " + me + ")"
            : UnixAttributes.ownerName(s.uid()) + " (this user is uid " + me + ")";
    String problem =
        (role == FolderRole.ABOVE ? p + " on its path" : subject(p, role))
            + " is a "
            + s.type()
            + ", not a directory, owned by "
            + owner;
    String fix;
    if (role == FolderRole.NAMESPACE) {
      fix = "remove " + p + " (snowid creates its namespace folders itself)";
    } else if (trusted(s.uid())) {
      fix = "give another directory with " + NODE;
    } else {
      fix = "remove " + p + " if you did not create it, or give another directory with " + NODE;
    }
    return refuse(p, problem, fix);
  }

  LeaseDirectoryException cannotRead(Path p, FolderRole role, IOException e) {
    return refuse(
        p,
        (role == FolderRole.ABOVE ? p + " on its path" : subject(p, role))
            + " cannot be read ("
            + describe(e)
            + ")",
        role == FolderRole.NAMESPACE
            ? "let this user read " + p.getParent()
            : "give a directory this user can reach, with " + NODE);
  }

  /** How a refusal names a folder in its role. */
  private String subject(Path p, FolderRole role) {
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

  /** An I/O failure in a refusal: its kind and the system's reason. */
  static String describe(IOException e) {
    String reason = e instanceof FileSystemException f ? f.getReason() : e.getMessage();
    return e.getClass().getSimpleName() + (reason == null ? "" : ": " + reason);
  }
}
