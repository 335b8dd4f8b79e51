package io.snowid.spring.boot;

import io.snowid.Snowflake;
import io.snowid.node.NodeStatus;
import java.time.Duration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * {@code snowid} in Actuator's health: UP while the generator can issue IDs; DOWN while it cannot —
 * its node lease is fenced (renewals failing, taken, released), its clock has not passed the node's
 * high-water mark yet, or the layout's lifetime is over — with the reason in {@code detail}. The
 * details are those of {@code snowid serve}'s {@code /health}.
 */
final class SnowIdHealthIndicator implements HealthIndicator {
  private final Snowflake snowflake;

  SnowIdHealthIndicator(Snowflake snowflake) {
    this.snowflake = snowflake;
  }

  @Override
  public Health health() {
    NodeStatus s = snowflake.nodeStatus();
    Duration left = snowflake.remainingLifetime();
    boolean expired = left.isNegative() || left.isZero();
    Health.Builder health = s.held() && !expired ? Health.up() : Health.down();
    health
        .withDetail("held", s.held())
        .withDetail("source", s.source())
        .withDetail("values", s.values())
        .withDetail("detail", expired ? "the layout's lifetime is over" : s.detail())
        .withDetail("renewals", s.renewals())
        .withDetail("renewalFailures", s.renewalFailures())
        .withDetail("layout", snowflake.layout().spec())
        .withDetail("lastInstant", snowflake.layout().lastInstant().toString());
    if (s.validUntil() != null) {
      health.withDetail("validUntil", s.validUntil().toString());
    }
    return health.build();
  }
}
