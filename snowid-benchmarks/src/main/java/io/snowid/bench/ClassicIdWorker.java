package io.snowid.bench;

/**
 * The textbook baseline: Twitter's 2010 {@code IdWorker}, ported from Scala as it is usually
 * copied. One lock; when the sequence of a millisecond is spent, {@link #tilNextMillis} busy-spins
 * on the clock until the next millisecond.
 */
public final class ClassicIdWorker {
  private final long twepoch;
  private final long workerId;
  private final int sequenceBits;
  private final int workerIdShift;
  private final int timestampLeftShift;
  private final long sequenceMask;

  private long sequence = 0L;
  private long lastTimestamp = -1L;

  /** Twitter's layout: 41 bits of time, 5 datacenter, 5 worker, 12 sequence. */
  public ClassicIdWorker(long workerId, long datacenterId) {
    this(1288834974657L, (datacenterId << 5) | workerId, 10, 12);
  }

  /** Any layout of time | worker (workerBits) | sequence (sequenceBits). */
  public ClassicIdWorker(long twepoch, long workerId, int workerBits, int sequenceBits) {
    if (workerId < 0 || workerId >= (1L << workerBits)) {
      throw new IllegalArgumentException("worker id out of range: " + workerId);
    }
    this.twepoch = twepoch;
    this.workerId = workerId;
    this.sequenceBits = sequenceBits;
    this.workerIdShift = sequenceBits;
    this.timestampLeftShift = sequenceBits + workerBits;
    this.sequenceMask = (1L << sequenceBits) - 1;
  }

  public synchronized long nextId() {
    long timestamp = timeGen();
    if (timestamp < lastTimestamp) {
      throw new IllegalStateException(
          "Clock moved backwards. Refusing to generate id for "
              + (lastTimestamp - timestamp)
              + " milliseconds");
    }
    if (lastTimestamp == timestamp) {
      sequence = (sequence + 1) & sequenceMask;
      if (sequence == 0) {
        timestamp = tilNextMillis(lastTimestamp);
      }
    } else {
      sequence = 0;
    }
    lastTimestamp = timestamp;
    return ((timestamp - twepoch) << timestampLeftShift) | (workerId << workerIdShift) | sequence;
  }

  private static long tilNextMillis(long lastTimestamp) {
    long timestamp = timeGen();
    while (timestamp <= lastTimestamp) {
      timestamp = timeGen();
    }
    return timestamp;
  }

  private static long timeGen() {
    return System.currentTimeMillis();
  }

  @Override
  public String toString() {
    return "ClassicIdWorker[worker=" + workerId + ", sequenceBits=" + sequenceBits + "]";
  }
}
