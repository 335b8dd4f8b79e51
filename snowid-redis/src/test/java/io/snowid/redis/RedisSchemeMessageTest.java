package io.snowid.redis;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.InvalidSettingException;
import io.snowid.lease.LeaseCoordinators;
import org.junit.jupiter.api.Test;

/** With snowid-redis on the class path, its schemes are offered by name, never by class. */
class RedisSchemeMessageTest {

  @Test
  void aMisspeltRedisScheme_getsDidYouMean_andTheRedisSchemesAreListed() {
    assertThatThrownBy(() -> LeaseCoordinators.provider("redsi://127.0.0.1:6379"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("redis-sentinel://, redis://, rediss://")
        .hasMessageEndingWith("; did you mean redis://?")
        .hasMessageNotContaining("RedisLeaseProvider");
  }
}
