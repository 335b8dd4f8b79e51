package io.snowid.lease;

import io.snowid.SnowIdException;
import java.time.Instant;
import java.util.Map;

/**
 * The generator's node lease is not valid (renewals failed, or it was released): it stops issuing
 * before the coordinator could hand the same node values to another process. It resumes by itself
 * once a renewal or a new acquisition succeeds.
 */
public class LeaseLostException extends SnowIdException {
  private static final long serialVersionUID = 1L;

  private final transient Map<String, Long> node;
  private final Instant since;

  public LeaseLostException(Map<String, Long> node, Instant since, String detail) {
    super("node " + node + " lease not valid since " + since + ": " + detail);
    this.node = Map.copyOf(node);
    this.since = since;
  }

  /** The node field values whose lease was lost. */
  public Map<String, Long> node() {
    return node;
  }

  /** When the lease stopped being valid, by the generator's time source. */
  public Instant since() {
    return since;
  }
}
