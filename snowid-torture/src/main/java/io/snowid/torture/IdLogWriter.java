package io.snowid.torture;

import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Appends to an {@link IdLog} file through memory-mapped chunks; one thread only. Every ID passed
 * to {@link #id} is in the page cache when the call returns.
 */
final class IdLogWriter implements AutoCloseable {
  private final FileChannel channel;
  private final long keyMask;
  private final byte[] scratch = new byte[IdLog.MAX_RECORD];
  private MappedByteBuffer chunk;
  private long chunkStart;
  private int pos;
  private boolean any;
  private long prevId;
  private long prevKey;
  private long prevMicros;

  /**
   * @param keyMask the bits of an ID that are neither time nor sequence: a change starts a segment
   */
  IdLogWriter(Path file, long keyMask) throws IOException {
    this.channel =
        FileChannel.open(
            file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
    this.keyMask = keyMask;
    this.chunk = channel.map(FileChannel.MapMode.READ_WRITE, 0, IdLog.CHUNK);
  }

  /** Bytes written so far (chunks skipped at their ends included). */
  long bytes() {
    return chunkStart + pos;
  }

  /** Records an ID and the monotonic time right after it was handed out. */
  void id(long id, long nanoTime) throws IOException {
    long micros = nanoTime / 1000;
    long key = id & keyMask;
    int n;
    long delta = id - prevId;
    if (any && key == prevKey && delta > 0 && delta < (1L << 40)) {
      n = varint(0, delta << 1);
      n = varint(n, micros - prevMicros);
    } else {
      scratch[0] = IdLog.SEGMENT;
      putLong(1, id);
      putLong(9, micros);
      n = 17;
      any = true;
    }
    commit(n);
    prevId = id;
    prevKey = key;
    prevMicros = micros;
  }

  /** Records an event and its monotonic time. */
  void event(IdLog.Event event, long nanoTime) throws IOException {
    long micros = nanoTime / 1000;
    scratch[0] = IdLog.EVENT;
    int n = varint(1, event.ordinal());
    n = varint(n, Math.max(0, micros - prevMicros));
    commit(n);
    prevMicros = Math.max(prevMicros, micros);
  }

  /** Marks a graceful stop. */
  void end() throws IOException {
    scratch[0] = IdLog.END;
    commit(1);
  }

  private void commit(int n) throws IOException {
    if (pos + n + 1 > IdLog.CHUNK) {
      chunk.put(pos, (byte) IdLog.SKIP);
      chunkStart += IdLog.CHUNK;
      pos = 0;
      chunk = channel.map(FileChannel.MapMode.READ_WRITE, chunkStart, IdLog.CHUNK);
    }
    // the record's first byte last: a reader (after a SIGKILL) sees all of it or a 0 there
    for (int i = 1; i < n; i++) {
      chunk.put(pos + i, scratch[i]);
    }
    VarHandle.storeStoreFence();
    chunk.put(pos, scratch[0]);
    pos += n;
  }

  private int varint(int at, long value) {
    long v = value;
    while ((v & ~0x7FL) != 0) {
      scratch[at++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    scratch[at++] = (byte) v;
    return at;
  }

  private void putLong(int at, long v) {
    for (int i = 7; i >= 0; i--) {
      scratch[at + 7 - i] = (byte) (v >>> (i * 8));
    }
  }

  /** Forces the written chunks to disk and closes the file (the mapping lives until GC). */
  @Override
  public void close() throws IOException {
    chunk.force();
    channel.close();
  }
}
