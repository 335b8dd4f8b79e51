package io.snowid.lease;

import io.snowid.Durations;
import io.snowid.SnowIdException;
import java.time.Duration;
import java.util.Map;

/**
 * A batch of IDs spans more ID time than a renewal of the generator's node lease covers ahead of
 * now: it could never be issued before the lease's deadline, however long it waited. No ID was
 * issued; the lease is fine. Ask for fewer IDs at a time, or lease with a longer {@code ttl}.
 */
public class LeaseWindowExceededException extends SnowIdException {
  private static final long serialVersionUID = 1L;

  private final transient Map<String, Long> node;
  private final int count;
  private final long spanMillis;
  private final long windowMillis;

  /**
   * @param node the node field values of the lease
   * @param count how many IDs were asked for at once
   * @param spanMillis the ID time those IDs span, in whole time units
   * @param windowMillis the ID time a renewal of the lease covers ahead of now, in whole time units
   */
  public LeaseWindowExceededException(
      Map<String, Long> node, int count, long spanMillis, long windowMillis) {
    super(
        "a batch of "
            + count
            + " IDs spans "
            + Durations.format(Duration.ofMillis(spanMillis))
            + " of ID time, more than the "
            + Durations.format(Duration.ofMillis(windowMillis))
            + " a renewal of the lease of node "
            + node
            + " covers: it can never be issued before the lease's deadline; ask for fewer IDs"
            + " at a time or lease with a longer ttl");
    this.node = Map.copyOf(node);
    this.count = count;
    this.spanMillis = spanMillis;
    this.windowMillis = windowMillis;
  }

  /** The node field values of the lease. */
  public Map<String, Long> node() {
    return node;
  }

  /** How many IDs were asked for at once. */
  public int count() {
    return count;
  }

  /** The ID time the batch spans, in whole time units. */
  public long spanMillis() {
    return spanMillis;
  }

  /** The ID time a renewal of the lease covers ahead of now, in whole time units. */
  public long windowMillis() {
    return windowMillis;
  }
}
