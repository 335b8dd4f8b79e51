package io.snowid.node;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

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
 */
public record NodeGrant(
    Map<String, Long> values,
    long validUntilMillis,
    long startAfterMillis,
    long acquisition,
    String source) {
  public NodeGrant {
    values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /** Values held forever, from a static source. */
  public static NodeGrant permanent(Map<String, Long> values, String source) {
    return new NodeGrant(values, Long.MAX_VALUE, Long.MIN_VALUE, 0, source);
  }

  /** The same acquisition with a later deadline. */
  public NodeGrant renewed(long newValidUntilMillis) {
    return new NodeGrant(values, newValidUntilMillis, startAfterMillis, acquisition, source);
  }
}
