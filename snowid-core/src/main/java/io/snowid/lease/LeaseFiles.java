package io.snowid.lease;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The lease files of a namespace folder, {@code <id>.lease}, and the record in each: found, created
 * locked, read and written. Every write is one positioned write of the whole record, forced to disk
 * before it returns (docs/design.md, "The {@code file:} backend").
 */
final class LeaseFiles {
  /** How late the file's change time may be after the record's own time: a slow disk's write. */
  private static final long WRITE_SLACK_MILLIS = 1_000;

  private LeaseFiles() {}

  /** The lease file of an id. */
  static Path path(Path nsDir, long id) {
    return nsDir.resolve(id + ".lease");
  }

  /** The ids of a namespace folder that have a lease file, lowest first. */
  static TreeSet<Long> existingIds(Path nsDir) throws IOException {
    TreeSet<Long> ids = new TreeSet<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(nsDir, "*.lease")) {
      for (Path f : files) {
        String name = f.getFileName().toString();
        String digits = name.substring(0, name.length() - ".lease".length());
        if (digits.matches("0|[1-9][0-9]{0,18}")) {
          long id = Long.parseLong(digits);
          ids.add(id);
        }
      }
    }
    return ids;
  }

  /**
   * Creates the lease file of an id that has none, empty and locked before it appears at its path
   * ({@link LockedFile#create}); null if another process created it meanwhile.
   */
  static LockedFile create(Path nsDir, long id) throws IOException {
    Path path = path(nsDir, id);
    Path temp = nsDir.resolve("." + id + "." + UUID.randomUUID() + ".new");
    return temp.getFileSystem().supportedFileAttributeViews().contains("posix")
        ? LockedFile.create(
            path,
            temp,
            t -> {},
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")))
        : LockedFile.create(path, temp, t -> {});
  }

  /**
   * Reads a record; null for an empty file (an id with no history).
   *
   * @throws LeaseRecord.DamagedException if the record is damaged
   */
  static LeaseRecord read(FileChannel ch) throws IOException, LeaseRecord.DamagedException {
    ByteBuffer buf = ByteBuffer.allocate((int) Math.min(ch.size(), 4096));
    while (buf.hasRemaining()) {
      if (ch.read(buf, buf.position()) < 0) {
        break;
      }
    }
    return LeaseRecord.parse(buf.array(), buf.position());
  }

  /** Reads a record; null for an empty file or a damaged record. */
  static LeaseRecord readQuietly(FileChannel ch) throws IOException {
    try {
      return read(ch);
    } catch (LeaseRecord.DamagedException e) {
      return null;
    }
  }

  /** Writes a record in place, forced to disk. */
  static void write(FileChannel ch, LeaseRecord r) throws IOException {
    ByteBuffer buf = ByteBuffer.wrap(r.bytes());
    while (buf.hasRemaining()) {
      ch.write(buf, buf.position());
    }
    if (ch.size() > LeaseRecord.SIZE) {
      ch.truncate(LeaseRecord.SIZE); // a longer file is damaged: its tail goes, after the record
    }
    ch.force(true);
  }

  /**
   * Whether the file at the path is as snowid last wrote it: its change time is not later than the
   * time written in the record. Unknown on a file system without change times: then assumed not.
   */
  static boolean writtenBySnowid(Path path, LeaseRecord r) throws IOException {
    if (r.writtenAt() < 0 || !UnixAttributes.supported(path)) {
      return false;
    }
    return UnixAttributes.changedMillis(path) <= r.writtenAt() + WRITE_SLACK_MILLIS;
  }

  /** A number for a log message, which MessageFormat would group ("28,667"). */
  static String str(long n) {
    return Long.toString(n);
  }
}
