package io.snowid.lease;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A lease a {@code file:} coordinator holds: its locked lease file, the record last written to it,
 * and the host-wide claim of its id. Every renewal first checks that the path still leads to the
 * locked file, the record still names this holder and the claim is still its own; a record damaged
 * under the lock is rewritten. Guarded by itself.
 */
final class HeldLease {
  private static final System.Logger LOG = System.getLogger("io.snowid.lease");

  /**
   * Every lease file held by a coordinator of this class loader, by file key: the operator listing
   * reads their records from memory, since opening a held file in this process would drop its lock.
   */
  private static final Map<String, HeldLease> HELD_HERE = new ConcurrentHashMap<>();

  final String token;
  final LockedFile file;
  final Path path;
  final FileChannel channel;
  final HostClaim claim;
  final LeaseLimits limits;
  LeaseRecord record;

  HeldLease(
      String token, LockedFile file, HostClaim claim, LeaseLimits limits, LeaseRecord record) {
    this.token = token;
    this.file = file;
    this.path = file.path();
    this.channel = file.channel();
    this.claim = claim;
    this.limits = limits;
    this.record = record;
  }

  /** The lease a coordinator of this class loader holds in the file with this key; null if none. */
  static HeldLease heldHere(String fileKey) {
    return HELD_HERE.get(fileKey);
  }

  /** Makes the lease known to the listing of this class loader. */
  void register() {
    HELD_HERE.put(file.key(), this);
  }

  /**
   * Renews the lease under {@code terms}: checks that it is still this holder's, then records the
   * new high-water mark in the namespace's marks, the lease file and the claim, in that order.
   *
   * @return null if renewed; else why the lease is lost (nothing is written then)
   */
  String renew(Path dir, Lease lease, LeaseTerms terms) throws IOException {
    String lost = lostBecause();
    if (lost == null) {
      LeaseRecord onDisk = readOwn();
      if (onDisk != null && !onDisk.token().equals(lease.token())) {
        lost =
            "lease file "
                + path
                + " names another holder (instance "
                + onDisk.instance()
                + ", pid "
                + onDisk.pid()
                + ")";
      }
    }
    if (lost == null) {
      LeaseRecord next =
          record.renewed(
              Math.max(record.highWater(), terms.mayIssueUntilMillis()),
              terms.expiresAtMillis(),
              System.currentTimeMillis());
      NamespaceMarks.raise(
          dir,
          lease.namespace(),
          next.ttlMillis(),
          next.highWater(),
          limits,
          Long.MIN_VALUE,
          next.writtenAt());
      LeaseFiles.write(channel, next);
      claim.record(next.highWater(), next.ttlMillis());
      record = next;
      lost = lostBecause(); // replaced while this write went to the old file
    }
    return lost;
  }

  /**
   * Writes the record released, if the lease is still this holder's. A holder that releases is
   * fenced and knows exactly what it issued: that replaces its own promises, so a graceful restart
   * does not wait out the promised deadline.
   */
  void writeReleased(Lease lease, long issuedUpToMillis) throws IOException {
    if (lostBecause() == null) {
      LeaseRecord onDisk = readOwn();
      if (onDisk == null || onDisk.token().equals(lease.token())) {
        LeaseRecord released =
            record.released(Math.max(record.base(), issuedUpToMillis), System.currentTimeMillis());
        LeaseFiles.write(channel, released);
        claim.record(released.highWater(), released.ttlMillis());
      }
    }
  }

  /** Lets the lease go: forgotten here, its file closed (its lock dropped), its claim given up. */
  void letGo() {
    HELD_HERE.remove(file.key(), this);
    ProcessFileClaims.endToken(token);
    try {
      file.close();
    } finally {
      claim.release();
    }
  }

  /**
   * Why the file at the path is no longer the one this holder locked, or its host-wide claim is no
   * longer its own; null if both still are.
   */
  private String lostBecause() throws IOException {
    String lease = leaseLostBecause();
    return lease != null ? lease : claim.lostBecause();
  }

  private String leaseLostBecause() throws IOException {
    if (!file.lock().isValid()) {
      return "its lock was released";
    }
    BasicFileAttributes now;
    try {
      now = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return Files.isDirectory(path.getParent())
          ? "lease file " + path + " was deleted"
          : "lease directory " + path.getParent() + " was deleted";
    }
    if (!LockedFile.keyOf(now, path).equals(file.key())) {
      return "lease file " + path + " was replaced by another file";
    }
    return null;
  }

  /** The record in the held file; a damaged one is logged and will be rewritten (null). */
  private LeaseRecord readOwn() throws IOException {
    try {
      LeaseRecord r = LeaseFiles.read(channel);
      if (r == null) {
        LOG.log(Level.WARNING, "lease file {0} was emptied; rewriting it", path);
      }
      return r;
    } catch (LeaseRecord.DamagedException e) {
      LOG.log(
          Level.WARNING,
          "lease file {0} was damaged ({1}); this holder still holds its lock and rewrites it",
          path,
          e.getMessage());
      return null;
    }
  }
}
