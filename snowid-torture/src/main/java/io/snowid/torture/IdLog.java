package io.snowid.torture;

/**
 * The binary form in which a worker streams every ID it was handed, with the time it got it.
 *
 * <p>A file holds records, each starting with a varint {@code h}:
 *
 * <ul>
 *   <li>{@code h} even, at least 2: an ID {@code h / 2} above the previous one of its segment, then
 *       a varint: microseconds since the previous record's time;
 *   <li>{@code h = 1} (segment): the ID as 8 bytes and the time as 8 bytes (big-endian), both
 *       absolute. A segment starts at the first ID, whenever the ID's node values or clockback
 *       count change, and where an ID is not above the previous one;
 *   <li>{@code h = 3} (event): a varint {@link Event} code, then a varint time delta as for IDs;
 *   <li>{@code h = 5} (skip): the rest of the chunk is empty, the next record starts the next one;
 *   <li>{@code h = 7} (end): the worker stopped gracefully (released its lease) here;
 *   <li>{@code h = 0}: no record (yet): the end of what was written.
 * </ul>
 *
 * <p>Times are {@code System.nanoTime() / 1000} of the worker, read right after {@code nextId()}
 * returned: CLOCK_MONOTONIC, shared by every process of the machine and never faked by libfaketime
 * (the workers run with {@code FAKETIME_DONT_FAKE_MONOTONIC=1}), so the harness maps them to real
 * time. Within a segment an ID typically costs 2 bytes.
 */
final class IdLog {
  /*
   * Durability without a system call per ID. The file is written through memory-mapped chunks
   * (MAP_SHARED): a store into the mapping is in the kernel's page cache at once, so SIGKILL loses
   * nothing that was stored, only a machine crash would. Each record is stored with its first
   * byte last (after a store-store fence): a reader sees either the whole record or a 0 where it
   * starts, i.e. the end. So the only ID a SIGKILL can hide is the one between nextId()
   * returning and its store: at most one per killed process, an ID nobody used.
   */
  static final int CHUNK = 16 << 20;

  /** The largest record (a segment) plus the skip marker. */
  static final int MAX_RECORD = 1 + 8 + 8 + 1;

  static final int SEGMENT = 1;
  static final int EVENT = 3;
  static final int SKIP = 5;
  static final int END = 7;

  /** What a worker met instead of an ID. */
  enum Event {
    /** {@code LeaseLostException}: the generator is fenced. */
    FENCED,
    /** {@code ClockMovedBackwardsException}: the wall-clock policy refused a step. */
    CLOCK_REFUSED,
    /** Any other exception of {@code nextId()}. */
    OTHER,
    /** Building the generator failed (no node id, the clock behind the high-water mark, …). */
    BUILD_FAILED,
    /** The generator was built: the worker issues from here on. */
    BUILT,
    /** The worker stopped issuing: its share of the disk budget is spent. */
    BUDGET_SPENT;

    static Event of(int code) {
      Event[] all = values();
      if (code < 0 || code >= all.length) {
        throw new IllegalArgumentException("no event " + code);
      }
      return all[code];
    }
  }

  private IdLog() {}
}
