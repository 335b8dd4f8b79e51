package io.snowid;

import io.snowid.node.NodeLease;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * What a {@link SnowflakeBuilder} was told, validated and with its defaults filled in: immutable,
 * one per {@link SnowflakeBuilder#build()}. The node source is not resolved yet (that may open a
 * lease): {@link #nodeSpec} and {@link #lease} say where the values will come from.
 *
 * @param layout the ID layout
 * @param time the time source
 * @param policy what to do when the time source steps back
 * @param maxWait the longest step back the {@code wait} policy waits out, and the furthest {@code
 *     startAfter} may be ahead of the time source
 * @param maxLead how far ahead of the time source an ID's time may be
 * @param startAfterMillis the builder's high-water mark; {@link Long#MIN_VALUE}: none
 * @param node explicit node field values, by name (possibly fewer than the layout has)
 * @param nodeSpec the node source spec ({@code auto}, {@code static:…}, a coordinator URI), or null
 * @param lease a lease the caller opened and will close, or null; takes precedence over nodeSpec
 * @param random the random source of a quiet tick's first sequence; null: {@link
 *     java.util.concurrent.ThreadLocalRandom}
 */
record SnowflakeSettings(
    Layout layout,
    TimeSource time,
    ClockPolicy policy,
    Duration maxWait,
    Duration maxLead,
    long startAfterMillis,
    Map<String, Long> node,
    String nodeSpec,
    NodeLease lease,
    RandomGenerator random) {
  SnowflakeSettings {
    node = Collections.unmodifiableMap(new LinkedHashMap<>(node));
  }

  /** {@link #maxLead} in whole time units of the layout. */
  long leadTicks() {
    return maxLead.toMillis() / layout.unitMillis();
  }

  /** {@link #maxWait} in whole time units of the layout. */
  long maxWaitTicks() {
    return maxWait.toMillis() / layout.unitMillis();
  }
}
