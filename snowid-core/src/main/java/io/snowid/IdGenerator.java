package io.snowid;

/** Issues unique, strictly increasing {@code long} IDs. Implementations are thread-safe. */
public interface IdGenerator {
  /** The next ID: greater than every ID this generator returned before the call began. */
  long nextId();

  /**
   * Fills {@code into} with a contiguous run of ascending IDs: no ID of a concurrent call falls
   * between the first and the last.
   */
  void nextIds(long[] into);

  /** The layout of the IDs this generator issues. */
  Layout layout();
}
