package io.snowid.torture;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads an {@link IdLog} file record by record: {@link #next()} advances, then the accessors
 * describe the record. Stops at the first empty record (what a killed worker had not written).
 */
final class IdLogReader implements AutoCloseable {
  /** What the current record is. */
  enum Kind {
    ID,
    EVENT,
    END
  }

  private final FileChannel channel;
  private final long size;
  private MappedByteBuffer chunk;
  private long chunkStart;
  private int pos;
  private Kind kind;
  private boolean segment;
  private long recordOffset;
  private long id;
  private long micros;
  private IdLog.Event event;

  IdLogReader(Path file) throws IOException {
    this.channel = FileChannel.open(file, StandardOpenOption.READ);
    this.size = channel.size();
    map(0);
  }

  /** A reader positioned so that {@link #next()} reads the segment record at {@code offset}. */
  static IdLogReader at(Path file, long offset) throws IOException {
    IdLogReader r = new IdLogReader(file);
    long start = offset / IdLog.CHUNK * IdLog.CHUNK;
    r.map(start);
    r.pos = (int) (offset - start);
    return r;
  }

  private void map(long start) throws IOException {
    chunkStart = start;
    pos = 0;
    long length = Math.min(IdLog.CHUNK, size - start);
    chunk = length <= 0 ? null : channel.map(FileChannel.MapMode.READ_ONLY, start, length);
  }

  /** Advances to the next record; false at the end of what was written. */
  boolean next() throws IOException {
    while (true) {
      if (chunk == null || pos >= chunk.limit()) {
        return false;
      }
      int first = chunk.get(pos) & 0xFF;
      if (first == 0) {
        return false;
      }
      recordOffset = chunkStart + pos;
      if (first == IdLog.SKIP) {
        map(chunkStart + IdLog.CHUNK);
        continue;
      }
      if (first == IdLog.SEGMENT) {
        pos++;
        id = getLong();
        micros = getLong();
        kind = Kind.ID;
        segment = true;
        return true;
      }
      if (first == IdLog.EVENT) {
        pos++;
        event = IdLog.Event.of((int) varint());
        micros += varint();
        kind = Kind.EVENT;
        segment = false;
        return true;
      }
      if (first == IdLog.END) {
        pos++;
        kind = Kind.END;
        segment = false;
        return true;
      }
      long h = varint();
      if ((h & 1) != 0 || h < 2) {
        throw new IOException("damaged record " + h + " at offset " + recordOffset);
      }
      id += h >>> 1;
      micros += varint();
      kind = Kind.ID;
      segment = false;
      return true;
    }
  }

  Kind kind() {
    return kind;
  }

  /** Whether the current ID starts a segment (its offset can be read from with {@link #at}). */
  boolean segment() {
    return segment;
  }

  long offset() {
    return recordOffset;
  }

  long id() {
    return id;
  }

  /** The record's monotonic time in microseconds (for END: the last record's). */
  long micros() {
    return micros;
  }

  IdLog.Event event() {
    return event;
  }

  private long getLong() throws IOException {
    if (pos + 8 > chunk.limit()) {
      throw new IOException("truncated record at offset " + recordOffset);
    }
    long v = chunk.getLong(pos);
    pos += 8;
    return v;
  }

  private long varint() throws IOException {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= chunk.limit()) {
        throw new IOException("truncated record at offset " + recordOffset);
      }
      int b = chunk.get(pos++) & 0xFF;
      v |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return v;
      }
    }
    throw new IOException("damaged varint at offset " + recordOffset);
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
