package io.snowid.lease;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What this acquisition learned of the namespace from every record it could read, held or not: a
 * newcomer that must wait out an unknown holder starts after all of it.
 */
final class NamespaceView {
  long highWater = Long.MIN_VALUE;
  long ttlMillis;

  /** The file that set {@link #highWater}, and its owner's uid. */
  Path highWaterFile;

  int highWaterOwner = -1;

  /** Lease files locked by another process. */
  int held;

  /** Other users' lease files no process holds, which this user cannot take: a description. */
  final List<String> notUsable = new ArrayList<>();

  /** Ids free here but claimed host-wide by a process of another lease directory. */
  int claimedElsewhere;

  /**
   * Whether the namespace had terms and marks but none a holder wrote within its limits: idle, or
   * rolled back (a restored directory).
   */
  boolean marksLost;

  void saw(LeaseRecord r, Path file) {
    sawHighWater(r.highWater(), file, LeaseDirectory.CurrentUser.uid());
    ttlMillis = Math.max(ttlMillis, r.ttlMillis());
  }

  /**
   * Another user's record: its high-water mark only makes a newcomer wait longer, whatever that
   * user wrote; its lease time comes from that user's own records.
   */
  void sawHighWater(long mark, Path file, int owner) {
    if (mark > highWater) {
      highWater = mark;
      highWaterFile = file;
      highWaterOwner = owner;
    }
  }
}
