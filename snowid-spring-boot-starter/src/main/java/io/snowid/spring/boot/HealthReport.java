package io.snowid.spring.boot;

import io.snowid.Snowflake;
import io.snowid.lease.Secrets;
import io.snowid.node.NodeStatus;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the {@code snowid} health component says, whatever Spring Boot's health API: up while the
 * generator can issue IDs; down while its node lease is fenced (renewals failing, taken, released),
 * its clock has not passed the node's high-water mark yet, or the layout's lifetime is over — with
 * the reason in {@code detail}. The details are those of {@code snowid serve}'s {@code /health}.
 */
record HealthReport(boolean up, Map<String, Object> details) {
  static HealthReport of(Snowflake snowflake) {
    NodeStatus s = snowflake.nodeStatus();
    Duration left = snowflake.remainingLifetime();
    boolean expired = left.isNegative() || left.isZero();
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("held", s.held());
    details.put("source", Secrets.scrub(s.source()));
    details.put("values", s.values());
    details.put("detail", expired ? "the layout's lifetime is over" : s.detail());
    details.put("renewals", s.renewals());
    details.put("renewalFailures", s.renewalFailures());
    details.put("layout", snowflake.layout().spec());
    details.put("lastInstant", snowflake.layout().lastInstant().toString());
    if (s.validUntil() != null) {
      details.put("validUntil", s.validUntil().toString());
    }
    return new HealthReport(s.held() && !expired, details);
  }
}
