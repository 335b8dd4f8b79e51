package io.snowid.zookeeper;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.InvalidSettingException;
import io.snowid.lease.LeaseCoordinators;
import org.junit.jupiter.api.Test;

/** With snowid-zookeeper on the class path, its schemes are offered by name, never by class. */
class ZooKeeperSchemeMessageTest {

  @Test
  void aMisspeltZooKeeperScheme_getsDidYouMean_andTheZooKeeperSchemesAreListed() {
    assertThatThrownBy(() -> LeaseCoordinators.provider("zookeper://127.0.0.1:2181"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("zk://, zookeeper://")
        .hasMessageEndingWith("; did you mean zookeeper://?")
        .hasMessageNotContaining("ZooKeeperLeaseProvider");
  }
}
