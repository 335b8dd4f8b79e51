package io.snowid.node;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Permission to issue IDs with these node field values, until a deadline.
 *
 * @param values the node field values, by name
 * @param validUntilMillis IDs may carry times strictly before this, in the generator's time-source
 *     milliseconds; {@link Long#MAX_VALUE} for values held forever (static sources)
 * @param startAfterMillis the high-water mark: IDs must carry times strictly after this; {@link
 *     Long#MIN_VALUE} when nothing was issued with these values before
 * @param acquisition identifies one acquisition: a renewal keeps it, a new acquisition (even of the
 *     same values) changes it
 * @param source where the values came from, for logs and status
 * @param validUntilNanos the same deadline in real time: IDs may be issued only while the time
 *     source's {@link io.snowid.TimeSource#nanoTime() nanoTime()} is before this (compared as
 *     {@code nanoTime - validUntilNanos < 0}); empty for no bound in real time (static sources, and
 *     grants made with the five-argument constructor). A generator whose time source may step back
 *     (the wall clock) stops at whichever deadline comes first
 */
public record NodeGrant(
    Map<String, Long> values,
    long validUntilMillis,
    long startAfterMillis,
    long acquisition,
    String source,
    OptionalLong validUntilNanos) {
  public NodeGrant {
    values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    validUntilNanos = validUntilNanos == null ? OptionalLong.empty() : validUntilNanos;
  }

  /** A grant with no deadline in real time: only the times IDs carry are bounded. */
  public NodeGrant(
      Map<String, Long> values,
      long validUntilMillis,
      long startAfterMillis,
      long acquisition,
      String source) {
    this(values, validUntilMillis, startAfterMillis, acquisition, source, OptionalLong.empty());
  }

  /** Values held forever, from a static source. */
  public static NodeGrant permanent(Map<String, Long> values, String source) {
    return new NodeGrant(values, Long.MAX_VALUE, Long.MIN_VALUE, 0, source);
  }

  /** The same acquisition with another deadline in ID time; the real-time deadline is kept. */
  public NodeGrant renewed(long newValidUntilMillis) {
    return new NodeGrant(
        values, newValidUntilMillis, startAfterMillis, acquisition, source, validUntilNanos);
  }

  /** The same acquisition with other deadlines, in ID time and in real time. */
  public NodeGrant renewed(long newValidUntilMillis, long newValidUntilNanos) {
    return new NodeGrant(
        values,
        newValidUntilMillis,
        startAfterMillis,
        acquisition,
        source,
        OptionalLong.of(newValidUntilNanos));
  }
}
