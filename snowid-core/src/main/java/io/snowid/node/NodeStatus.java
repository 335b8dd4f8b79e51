package io.snowid.node;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Whether a generator may issue IDs now, with which node values, from which source and why.
 *
 * @param held true while the node values are held and IDs can be issued (false while they are held
 *     but the time source has not passed the node's high-water mark yet)
 * @param source where the values came from (e.g. {@code "system property snowid.worker-id"} or
 *     {@code "file:/var/lib/snowid"})
 * @param values the node field values (empty while none are held)
 * @param validUntil the end of the current lease by the local clock; null when held forever
 * @param detail a human-readable reason, e.g. why the lease is not held
 * @param renewals successful renewals so far
 * @param renewalFailures failed renewal attempts so far
 * @param waitingUntil while the values are held but the first ID has to wait for the node's
 *     high-water mark: the instant after which IDs can be issued; null otherwise
 */
public record NodeStatus(
    boolean held,
    String source,
    Map<String, Long> values,
    Instant validUntil,
    String detail,
    long renewals,
    long renewalFailures,
    Instant waitingUntil) {
  public NodeStatus {
    values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /** A status that is not waiting for a high-water mark. */
  public NodeStatus(
      boolean held,
      String source,
      Map<String, Long> values,
      Instant validUntil,
      String detail,
      long renewals,
      long renewalFailures) {
    this(held, source, values, validUntil, detail, renewals, renewalFailures, null);
  }
}
