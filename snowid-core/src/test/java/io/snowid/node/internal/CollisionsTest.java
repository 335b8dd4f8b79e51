package io.snowid.node.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The birthday bound the container WARN quotes, against figures worked out by hand. */
class CollisionsTest {
  @Test
  void probability_fiveBitsOfAddress_isTheIssuesFigures() {
    assertThat(Collisions.probability(32, 5)).isCloseTo(0.2798, within(0.0001));
    assertThat(Collisions.probability(32, 10)).isCloseTo(0.7921, within(0.0001));
    assertThat(Collisions.probability(32, 33)).isEqualTo(1.0);
    assertThat(Collisions.probability(1, 2)).isEqualTo(1.0);
  }

  @Test
  void describe_roundsForReading() {
    assertThat(Collisions.describe(32, "containers"))
        .isEqualTo("2 containers collide with probability 3.1%, 5 with 28%, 10 with 79%");
    assertThat(Collisions.describe(1, "pods")).isEqualTo("any 2 pods collide");
  }
}
