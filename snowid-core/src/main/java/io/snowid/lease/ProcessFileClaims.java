package io.snowid.lease;

import java.util.Properties;

/**
 * Which lease files and claim files this JVM has open, shared by every copy of snowid loaded in it.
 *
 * <p>A file is claimed, by its file key (device and inode), before it is opened, and unclaimed
 * after it is closed; a file that is claimed is neither opened nor read. The claims are system
 * properties, {@code io.snowid.lease.open.<file key>}, so that they are one set per JVM, whatever
 * the class loader. Why (closing any descriptor of a file drops the process's locks on it) and what
 * this cannot stop: docs/design.md, "The {@code file:} backend".
 */
final class ProcessFileClaims {
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
