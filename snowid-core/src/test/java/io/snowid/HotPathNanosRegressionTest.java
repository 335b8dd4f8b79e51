package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The hot path checks its time unit on a reading in nanoseconds, which only the built-in monotonic
 * source gives it. That reading is no public method of {@link TimeSource}, so a user's source with
 * a {@code unixNanos()} of its own does not silently decide the IDs' time, ahead of its {@code
 * millis()}.
 */
class HotPathNanosRegressionTest {
  /** A user's source with a method of its own that happens to be called unixNanos. */
  static final class UserSource implements TimeSource {
    long millis = 1_764_000_000_000L;

    @Override
    public long millis() {
      return millis;
    }

    /** Not a reading the generator knows of: 5 ms ahead of millis(). */
    public long unixNanos() {
      return (millis + 5) * 1_000_000L;
    }

    @Override
    public long awaitMillis(long target) {
      millis = Math.max(millis, target);
      return millis;
    }
  }

  @Test
  void nextId_userSourceWithAUnixNanosMethodOfItsOwn_stampsTheTimeOfItsMillis() {
    UserSource source = new UserSource();
    Snowflake gen =
        Snowflake.builder()
            .timeSource(source)
            .clockPolicy(ClockPolicy.FAIL)
            .node("datacenter", 1)
            .node("worker", 1)
            .build();
    for (int i = 0; i < 20_000; i++) {
      long id = gen.nextId();
      assertThat(gen.layout().decode(id).timestampMillis()).isLessThanOrEqualTo(source.millis);
      if (i % 1000 == 999) {
        source.millis++;
      }
    }
    assertThat(gen.clockStepCount()).isZero();
  }

  @Test
  void nanosOf_outsideTheLongRangeOfNanoseconds_saturates() {
    for (long millis : new long[] {1_764_000_000_123L, -5, 0, Long.MAX_VALUE / 1_000_000L}) {
      assertThat(Position.nanosOf(millis)).isEqualTo(millis * 1_000_000L);
    }
    assertThat(Position.nanosOf(Long.MAX_VALUE / 1_000_000L + 1)).isEqualTo(Long.MAX_VALUE);
    assertThat(Position.nanosOf(Long.MIN_VALUE / 1_000_000L - 1)).isEqualTo(Long.MIN_VALUE);
    assertThat(Position.nanosOf(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
    assertThat(Position.nanosOf(Long.MIN_VALUE)).isEqualTo(Long.MIN_VALUE);
  }
}
