package io.snowid.lease;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

/**
 * What the {@code file:} backend reads of a file beyond its contents: its owner and its change
 * time, on a file system that has them ({@link #supported}); and how a message names an owner.
 */
final class UnixAttributes {
  private UnixAttributes() {}

  /** Whether the file system of {@code p} has POSIX owners, modes and change times. */
  static boolean supported(Path p) {
    return p.getFileSystem().supportedFileAttributeViews().contains("unix");
  }

  /** The uid that owns a file (a symbolic link itself, not its target). */
  static int uid(Path p) throws IOException {
    return (Integer) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS);
  }

  /** The uid that owns a file, following a symbolic link to its target. */
  static int uidFollowingLinks(Path p) throws IOException {
    return (Integer) Files.getAttribute(p, "unix:uid");
  }

  /**
   * The file's change time (of a symbolic link itself): set by the kernel at every write, rename,
   * copy or permission change, and impossible to set back.
   */
  static long changedMillis(Path p) throws IOException {
    return ((FileTime) Files.getAttribute(p, "unix:ctime", LinkOption.NOFOLLOW_LINKS)).toMillis();
  }

  /** An owner as messages name it: {@code root} or {@code uid N}. */
  static String ownerName(int uid) {
    return uid == 0 ? "root" : "uid " + uid;
  }
}
