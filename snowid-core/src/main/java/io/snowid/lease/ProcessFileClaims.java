package io.snowid.lease;

import java.util.Properties;

/**
 * Which lease files this JVM has open, shared by every copy of snowid loaded in it.
 *
 * <p>A file is claimed, by its file key (device and inode), before it is opened, and unclaimed
 * after it is closed; a file that is claimed is neither opened nor read.
 */
final class ProcessFileClaims {
  /*
   * Why. The OS locks behind file: leases are POSIX record locks, owned by the process: closing
   * ANY descriptor of a file drops every lock the process holds on it, even one taken through
   * another descriptor. So nothing in this JVM may open a lease file that this JVM holds — not
   * this coordinator, not another coordinator on the same directory, not another copy of snowid
   * loaded by another class loader (two web applications in one servlet container), not the same
   * file reached through another path (a bind mount, a hard link).
   *
   * Where. A static set would be one per class loader. The system properties are one per JVM and
   * hold strings only: each claim is the property `io.snowid.lease.open.<file key>`, set with
   * putIfAbsent (Properties is a synchronized Hashtable, so that is atomic). It is visible in a
   * dump of the system properties, which helps diagnosis. The key is the file key, not the path,
   * so two paths to one file are one claim.
   *
   * What it cannot stop: code that is not snowid opening a held file in this JVM (reading it once
   * with Files.readString drops the lock). The record's holder process and expiry cover that case:
   * a newcomer in another process finds the lock free but the record naming a live holder, and
   * leaves the id alone.
   */
  private static final String PREFIX = "io.snowid.lease.open.";
  private static final String TOKENS = "io.snowid.lease.token.";

  private ProcessFileClaims() {}

  /** Claims a file for this JVM; false if some copy of snowid in it has claimed it already. */
  static boolean claim(Object fileKey, String path) {
    return System.getProperties().putIfAbsent(PREFIX + fileKey, path) == null;
  }

  /**
   * Marks a lease token as held by a live holder in this JVM (any copy of snowid), until {@link
   * #endToken}: a record of this process that names it is not a leftover.
   */
  static void liveToken(String token, String path) {
    System.getProperties().put(TOKENS + token, path);
  }

  static void endToken(String token) {
    System.getProperties().remove(TOKENS + token);
  }

  /** Whether a holder in this JVM holds the lease with this token. */
  static boolean isLiveToken(String token) {
    return System.getProperties().containsKey(TOKENS + token);
  }

  /** Gives up a claim made with the same key and path. */
  static void release(Object fileKey, String path) {
    Properties p = System.getProperties();
    p.remove(PREFIX + fileKey, path);
  }
}
