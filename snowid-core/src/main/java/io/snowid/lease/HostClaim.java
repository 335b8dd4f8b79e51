package io.snowid.lease;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * A host-wide claim this process holds ({@link HostClaims}): this user's locked claim file of one
 * {@code (key, id)}, and the highest high-water mark any user's claim file of it recorded when it
 * was taken.
 */
final class HostClaim {
  /** The claim when claims are off: always held, records nothing. */
  static final HostClaim NONE = new HostClaim(null);

  /** The locked claim file; null when claims are off. */
  private final LockedFile file;

  private final FileChannel channel;
  private final Path path;
  private long highWater = Long.MIN_VALUE;
  private long ttlMillis;
  private Path highWaterFile;
  private int highWaterOwner = -1;
  private boolean damaged;

  HostClaim(LockedFile file) {
    this.file = file;
    this.channel = file == null ? null : file.channel();
    this.path = file == null ? null : file.path();
  }

  /** Takes in the mark of a claim file of the same {@code (key, id)}: null if it is damaged. */
  void see(ClaimMark mark, Path file, long owner) {
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
   * The latest ID time any earlier holder of these node values recorded, on any lease directory of
   * this host; {@link Long#MIN_VALUE} if none.
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

  /** The claim file's channel; null when claims are off. */
  FileChannel channel() {
    return channel;
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
    new ClaimMark(highWaterMillis, leaseMillis).write(channel);
    readBack();
  }

  /**
   * Reads the file through the held channel, which moves its access time past the write's
   * modification time (relatime): a cleaner that ages files by either leaves it. Setting the times
   * by path would open and close the file in this process, dropping its lock.
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
