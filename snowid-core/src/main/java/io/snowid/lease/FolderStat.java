package io.snowid.lease;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;

/**
 * The owner, group and mode of a path, not following a symbolic link.
 *
 * @param uid the owner
 * @param gid the group
 * @param mode the type and permission bits, as {@code stat(2)} gives them
 */
record FolderStat(int uid, int gid, int mode) {
  static final int OTHERS_WRITE = 0002;
  static final int GROUP_WRITE = 0020;
  static final int STICKY = 01000;
  private static final int TYPE = 0170000;
  private static final int DIRECTORY = 0040000;
  private static final int SYMBOLIC_LINK = 0120000;

  /** A path's owner, group and mode; null if it does not exist. */
  static FolderStat of(Path p) throws IOException {
    try {
      Map<String, Object> a =
          Files.readAttributes(p, "unix:uid,gid,mode", LinkOption.NOFOLLOW_LINKS);
      return new FolderStat(
          (Integer) a.get("uid"), (Integer) a.get("gid"), (Integer) a.get("mode"));
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /** Sticky and writable by every user, like /tmp: a folder of several users. */
  boolean isSharedByAll() {
    return (mode & (STICKY | OTHERS_WRITE)) == (STICKY | OTHERS_WRITE);
  }

  boolean isGroupWritable() {
    return (mode & GROUP_WRITE) != 0;
  }

  /** Writable by every user without the sticky bit: anyone could rename or delete what is in it. */
  boolean isWritableByAllWithoutSticky() {
    return (mode & OTHERS_WRITE) != 0 && (mode & STICKY) == 0;
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
