package io.snowid.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseCoordinators;
import io.snowid.lease.LeaseTerms;
import io.snowid.lease.RegistryUnavailableException;
import io.snowid.testkit.TcpCut;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A call that etcd did not answer moves the coordinator's later calls to a new connection: a TCP
 * connection cut by dropped packets stays in the kernel's retransmission back-off for seconds after
 * the cut healed (the torture run's partitions: 5.8-7.0 s), which no lease should wait for. The
 * link here, once silenced, never answers on a connection opened before it healed: a connection
 * kept is a renewal failed.
 */
@Tag("integration")
class EtcdSilentConnectionTest {
  private static final String PREFIX = TestEtcd.uniquePrefix();
  private static final Duration TTL = Duration.ofSeconds(3);

  @BeforeEach
  void putThePrefixInService() {
    TestEtcd.shared().putInService(PREFIX);
  }

  @AfterAll
  static void deleteThePrefix() {
    TestEtcd.shared().deletePrefix(PREFIX);
  }

  private static LeaseTerms terms() {
    long now = System.currentTimeMillis();
    return new LeaseTerms(TTL, now, now + 1000);
  }

  private static EtcdLeaseCoordinator through(TcpCut link) {
    return (EtcdLeaseCoordinator)
        LeaseCoordinators.open("etcd://127.0.0.1:" + link.port() + "?prefix=" + PREFIX);
  }

  @Test
  void renew_afterARenewalEtcdNeverAnswered_renewsOnANewConnectionOnceTheCutHealed()
      throws Exception {
    try (TcpCut link = new TcpCut(TestEtcd.shared().port());
        EtcdLeaseCoordinator c = through(link)) {
      Lease lease = c.acquire(new AcquireRequest("silent", 4, "a", terms()));
      int before = link.connections();

      link.silence();
      assertThatThrownBy(() -> c.renew(lease, terms()))
          .isInstanceOf(RegistryUnavailableException.class)
          .hasMessageContaining("did not answer the renewal");
      link.heal();

      Lease renewed = c.renew(lease, terms());
      assertThat(renewed.nodeId()).isEqualTo(lease.nodeId());
      assertThat(link.connections()).isGreaterThan(before);
    }
  }

  @Test
  void acquire_afterCallsUnansweredOnTwoConnectionsInARow_acquiresOnceTheCutHealed()
      throws Exception {
    try (TcpCut link = new TcpCut(TestEtcd.shared().port());
        EtcdLeaseCoordinator c = through(link)) {
      Lease first = c.acquire(new AcquireRequest("silent-twice", 4, "a", terms()));

      link.silence(); // the connection made after the first unanswered call is silent too
      assertThatThrownBy(() -> c.renew(first, terms()))
          .isInstanceOf(RegistryUnavailableException.class);
      assertThatThrownBy(() -> c.renew(first, terms()))
          .isInstanceOf(RegistryUnavailableException.class);
      link.heal();

      // the namespace's view watched on the first connection: it ended with it, and the
      // acquisition reads afresh instead of judging on what that view last delivered
      Lease second = c.acquire(new AcquireRequest("silent-twice", 4, "b", terms()));
      assertThat(second.nodeId()).isNotEqualTo(first.nodeId());
      assertThat(c.renew(first, terms()).nodeId()).isEqualTo(first.nodeId());
    }
  }
}
