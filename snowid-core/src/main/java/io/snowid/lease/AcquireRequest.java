package io.snowid.lease;

import io.snowid.InvalidSettingException;
import java.time.Duration;

/**
 * A holder's request for one node id of a namespace.
 *
 * <p>An id is a layout's node values packed into one number ({@link io.snowid.Layout#packNode}). A
 * holder that fixes some node fields may take only the ids whose bits at {@code mask} are {@code
 * match}; one that fixes none asks with {@code mask} 0. Every holder of a namespace contends for
 * the same ids whatever it fixes, so two holders never get the same node values.
 *
 * @param namespace ids are unique within a namespace; a folder, key prefix or column value of the
 *     coordinator (letters, digits and {@code . _ : -})
 * @param size the namespace has the ids {@code [0, size)}, a power of two
 * @param mask the bits of an id that the holder fixed
 * @param match the values of those bits: the holder may take an id {@code v} only when {@code (v &
 *     mask) == match}
 * @param instance the holder's identity, stable across restarts: it gets the id it held last back
 *     when that id is free and allowed
 * @param terms the lease time, the holder's clock and its high-water promise
 * @param limits the bounds the holder is held to, which a network coordinator records with the
 *     namespace and waits out after a loss of its state
 * @param startWait how far past the holder's clock its first ID may be: a coordinator that finds
 *     the id's start later than that may refuse before it writes the id's record (as {@code file:}
 *     does); a lease holder refuses such a start in any case and asks with its {@code startWait}
 *     option (default: no bound, every start granted)
 */
public record AcquireRequest(
    String namespace,
    long size,
    long mask,
    long match,
    String instance,
    LeaseTerms terms,
    LeaseLimits limits,
    Duration startWait) {
  public AcquireRequest {
    if (startWait == null || startWait.isNegative()) {
      throw new InvalidSettingException("startWait", startWait, "a duration of 0 or more");
    }
    if (startWait.compareTo(ANY_START) > 0) {
      startWait = ANY_START; // beyond what milliseconds count: no bound
    }
    if (size < 1 || Long.bitCount(size) != 1) {
      throw new InvalidSettingException("size", size, "a power of two, at least 1");
    }
    if ((mask & ~(size - 1)) != 0 || (match & ~mask) != 0) {
      throw new InvalidSettingException(
          "match", match, "bits within mask " + mask + " below size " + size);
    }
  }

  /** No bound on a start: the caller judges the start it is granted. */
  private static final Duration ANY_START = Duration.ofMillis(Long.MAX_VALUE);

  /** A request that takes whatever start it is granted. */
  public AcquireRequest(
      String namespace,
      long size,
      long mask,
      long match,
      String instance,
      LeaseTerms terms,
      LeaseLimits limits) {
    this(namespace, size, mask, match, instance, terms, limits, ANY_START);
  }

  /** A request under the default limits. */
  public AcquireRequest(
      String namespace, long size, long mask, long match, String instance, LeaseTerms terms) {
    this(namespace, size, mask, match, instance, terms, LeaseLimits.DEFAULT);
  }

  /** A request for any id of the namespace, under the default limits. */
  public AcquireRequest(String namespace, long size, String instance, LeaseTerms terms) {
    this(namespace, size, 0, 0, instance, terms);
  }

  /** Whether the holder may take {@code id}. */
  public boolean allows(long id) {
    return id >= 0 && id < size && (id & mask) == match;
  }

  /** The lowest id the holder may take. */
  public long first() {
    return match;
  }

  /**
   * The next id after {@code id} that the holder may take, or -1 past the last: the free bits
   * counted up by one, the fixed ones kept.
   */
  public long next(long id) {
    long n = (((id | mask) + 1) & ~mask) | match;
    return n < size && n > id ? n : -1;
  }

  /** How many ids the holder may take. */
  public long count() {
    return size >>> Long.bitCount(mask);
  }
}
