package io.snowid.lease;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.zip.CRC32;

/**
 * One node id's record in a {@code file:} lease directory: who holds the id, until when, and the
 * high-water mark that the next holder must start after.
 *
 * @param version the record format: {@link #VERSION} when written here; a higher one was written by
 *     a newer snowid, whose record this one does not judge
 * @param instance the holder's identity, for stable reuse across restarts
 * @param token the holder's random lease token; empty once released
 * @param host the holder's host name
 * @param bootId the holder host's boot id ({@code /proc/sys/kernel/random/boot_id}); empty if
 *     unknown
 * @param pid the holder's process id; -1 if unknown
 * @param pidNamespace the holder's PID namespace ({@code pid:[4026531836]} on Linux); empty if
 *     unknown. A pid identifies a process only within its namespace.
 * @param startTicks the holder process's start in clock ticks since boot; -1 if unknown (tells a
 *     reused pid apart)
 * @param ttlMillis the holder's lease time: a newcomer that must wait out a holder waits the
 *     longest it finds
 * @param writtenAt the wall clock when the record was written (Unix ms): a file whose change time
 *     is later was put there by something other than snowid (a copy, a restore, a move)
 * @param base the high-water mark left by previous holders (Unix ms of ID time)
 * @param highWater {@code base} raised by what this holder promised it may issue
 * @param expiresAt when the lease ends unless renewed, by the holder's clock (Unix ms)
 */
record LeaseRecord(
    int version,
    String instance,
    String token,
    String host,
    String bootId,
    long pid,
    String pidNamespace,
    long startTicks,
    long ttlMillis,
    long writtenAt,
    long base,
    long highWater,
    long expiresAt) {
  /*
   * Format: java.util.Properties text, `crc=` (CRC-32 of everything before it) last, padded with
   * a comment to exactly SIZE bytes and written in place as one positioned write, so a process
   * killed mid-write leaves the old record or the new one. A record of this version has every key;
   * a reader that meets a version above its own does not guess: the id counts as taken.
   */
  static final int VERSION = 2;

  /** The size of every record of {@link #VERSION}: a record of another size is damaged. */
  static final int SIZE = 512;

  private static final long NONE = Long.MIN_VALUE;

  /** Thrown for a record whose checksum or fields are wrong: a torn write or tampering. */
  static final class DamagedException extends Exception {
    private static final long serialVersionUID = 1L;

    DamagedException(String why) {
      super(why);
    }
  }

  /** The record of a released id: no holder, only the high-water mark and the lease time. */
  LeaseRecord released(long highWaterMillis, long nowWall) {
    return new LeaseRecord(
        VERSION,
        instance,
        "",
        host,
        "",
        -1,
        "",
        -1,
        ttlMillis,
        nowWall,
        highWaterMillis,
        highWaterMillis,
        NONE);
  }

  /** This record, renewed: a later expiry and high-water mark, written now. */
  LeaseRecord renewed(long highWaterMillis, long expiresAtMillis, long nowWall) {
    return new LeaseRecord(
        VERSION,
        instance,
        token,
        host,
        bootId,
        pid,
        pidNamespace,
        startTicks,
        ttlMillis,
        nowWall,
        base,
        highWaterMillis,
        expiresAtMillis);
  }

  boolean isReleased() {
    return token.isEmpty();
  }

  /** Whether a newer snowid wrote the record: what it says is not judged here. */
  boolean isNewer() {
    return version > VERSION;
  }

  /**
   * Parses a record. Returns null for an empty (or all-blank) file: an id with no history.
   *
   * @throws DamagedException if the checksum does not match, a field is missing or malformed, or a
   *     record of {@link #VERSION} is not {@link #SIZE} bytes long
   */
  static LeaseRecord parse(byte[] bytes, int length) throws DamagedException {
    String text = new String(bytes, 0, length, StandardCharsets.UTF_8);
    if (text.isBlank()) {
      return null;
    }
    int crcAt = text.indexOf("\ncrc=");
    if (crcAt < 0) {
      throw new DamagedException("no checksum");
    }
    Properties p = new Properties();
    try {
      p.load(new StringReader(text));
    } catch (IOException | IllegalArgumentException e) {
      throw new DamagedException("not a properties text: " + e.getMessage());
    }
    CRC32 crc = new CRC32();
    crc.update(text.substring(0, crcAt + 1).getBytes(StandardCharsets.UTF_8));
    if (!Long.toString(crc.getValue()).equals(p.getProperty("crc"))) {
      throw new DamagedException("checksum mismatch");
    }
    long version = number(p, "version", false, 0);
    if (version < VERSION) {
      throw new DamagedException("record version " + version + ", which snowid never wrote");
    }
    // A newer record is read as far as its keys go, only to be named: its id counts as taken.
    boolean newer = version > VERSION;
    if (!newer && length != SIZE) {
      throw new DamagedException(length + " bytes, not " + SIZE);
    }
    return new LeaseRecord(
        (int) Math.min(version, Integer.MAX_VALUE),
        text(p, "instance", newer),
        text(p, "token", newer),
        text(p, "host", newer),
        text(p, "bootId", newer),
        number(p, "pid", newer, -1),
        text(p, "pidNamespace", newer),
        number(p, "startTicks", newer, -1),
        number(p, "ttl", newer, 0),
        number(p, "writtenAt", newer, -1),
        number(p, "base", newer, NONE),
        number(p, "highWater", newer, NONE),
        number(p, "expiresAt", newer, NONE));
  }

  /** A text field; {@code ""} if missing and {@code lenient}. */
  private static String text(Properties p, String key, boolean lenient) throws DamagedException {
    String v = p.getProperty(key);
    if (v == null && !lenient) {
      throw new DamagedException("no " + key);
    }
    return v == null ? "" : v;
  }

  /** A number field; {@code absent} if missing and {@code lenient}. */
  private static long number(Properties p, String key, boolean lenient, long absent)
      throws DamagedException {
    String v = p.getProperty(key);
    if (v == null) {
      if (!lenient) {
        throw new DamagedException("no " + key);
      }
      return absent;
    }
    try {
      return Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      throw new DamagedException(key + " is not a number: " + v);
    }
  }

  /**
   * The record as exactly {@link #SIZE} bytes.
   *
   * @throws IllegalStateException if it does not fit (names are bounded far below that)
   */
  byte[] bytes() {
    String text =
        "version="
            + version
            + "\ninstance="
            + instance
            + "\ntoken="
            + token
            + "\nhost="
            + host
            + "\nbootId="
            + bootId
            + "\npid="
            + pid
            + "\npidNamespace="
            + pidNamespace
            + "\nstartTicks="
            + startTicks
            + "\nttl="
            + ttlMillis
            + "\nwrittenAt="
            + writtenAt
            + "\nbase="
            + base
            + "\nhighWater="
            + highWater
            + "\nexpiresAt="
            + expiresAt
            + "\n";
    CRC32 crc = new CRC32();
    crc.update(text.getBytes(StandardCharsets.UTF_8));
    StringBuilder record = new StringBuilder(text).append("crc=").append(crc.getValue());
    record.append("\n#");
    byte[] head = record.toString().getBytes(StandardCharsets.UTF_8);
    if (head.length > SIZE - 1) {
      throw new IllegalStateException("lease record of " + head.length + " bytes: names too long");
    }
    byte[] out = new byte[SIZE];
    System.arraycopy(head, 0, out, 0, head.length);
    for (int i = head.length; i < SIZE - 1; i++) {
      out[i] = ' ';
    }
    out[SIZE - 1] = '\n';
    return out;
  }
}
