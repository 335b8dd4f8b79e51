package io.snowid.lease;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.zip.CRC32;

/**
 * What a host-wide claim file records: its holder's high-water mark and lease time, as one line
 * {@code <version> <high-water> <ttl> <crc>} (CRC-32 of what precedes it).
 *
 * @param highWater the latest ID time the holder may issue up to
 * @param ttlMillis the holder's lease time
 */
record ClaimMark(long highWater, long ttlMillis) {
  /** A new file's: nothing recorded yet. */
  static final ClaimMark NONE = new ClaimMark(Long.MIN_VALUE, 0);

  private static final int MAX_SIZE = 128;
  private static final int VERSION = 1;

  private String line() {
    return VERSION + " " + highWater + " " + ttlMillis;
  }

  /** A claim file's mark: {@link #NONE} for a new one, null if damaged. */
  static ClaimMark read(FileChannel ch) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(MAX_SIZE);
    while (buf.hasRemaining()) {
      if (ch.read(buf, buf.position()) < 0) {
        break;
      }
    }
    String text = new String(buf.array(), 0, buf.position(), UTF_8);
    if (text.isEmpty()) {
      return NONE;
    }
    String[] parts = text.strip().split(" ");
    if (parts.length != 4 || !parts[0].equals(Integer.toString(VERSION))) {
      return null; // damaged, or written by a newer snowid: what it says is unknown
    }
    try {
      ClaimMark m = new ClaimMark(Long.parseLong(parts[1]), Long.parseLong(parts[2]));
      return parts[3].equals(crc(m.line())) ? m : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Replaces the file's contents with this mark, forced to disk. */
  void write(FileChannel ch) throws IOException {
    String line = line();
    byte[] text = (line + " " + crc(line) + "\n").getBytes(UTF_8);
    ByteBuffer buf = ByteBuffer.wrap(text);
    while (buf.hasRemaining()) {
      ch.write(buf, buf.position());
    }
    ch.truncate(text.length);
    ch.force(true);
  }

  private static String crc(String text) {
    CRC32 crc = new CRC32();
    crc.update(text.getBytes(UTF_8));
    return Long.toString(crc.getValue());
  }
}
