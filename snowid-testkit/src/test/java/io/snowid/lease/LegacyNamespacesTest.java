package io.snowid.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.Snowflake;
import io.snowid.node.NodeIdUnavailableException;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A process of this version never leases beside a live lease of an earlier one, whose keys named
 * the configuration instead of the ID space: it would not see that lease and could take its values.
 */
class LegacyNamespacesTest {
  private final String registry = "memory:legacy-" + UUID.randomUUID();

  private Lease holdUnder(LeaseCoordinator c, String key) {
    long now = System.currentTimeMillis();
    return c.acquire(
        new AcquireRequest(
            key, 32, "old-version", new LeaseTerms(Duration.ofSeconds(30), now, now + 20_000)));
  }

  @Test
  void build_liveLeaseUnderAnOldKeyOfTheNamespace_refusedNamingItAndTheSteps() {
    try (LeaseCoordinator old = LeaseCoordinators.open(registry)) {
      Lease l = holdUnder(old, "orders.adc4e56c.worker.datacenter2");

      assertThatThrownBy(
              () -> Snowflake.builder().nodeSource(registry + "?namespace=orders").build())
          .isInstanceOf(NodeIdUnavailableException.class)
          .hasMessageContaining("orders.adc4e56c.worker.datacenter2 (1 held)")
          .hasMessageContaining("Stop or upgrade those processes");

      old.release(l, l.highWaterMillis());
      try (Snowflake s = Snowflake.builder().nodeSource(registry + "?namespace=orders").build()) {
        assertThat(s.nextId()).isPositive();
      }
    }
  }

  @Test
  void build_oldKeysOfOtherNamespacesOrReleased_doNotStopIt() {
    try (LeaseCoordinator old = LeaseCoordinators.open(registry)) {
      holdUnder(old, "ordersx.adc4e56c.worker.datacenter2");
      holdUnder(old, "other.316cecf6.worker");
      try (Snowflake s = Snowflake.builder().nodeSource(registry + "?namespace=orders").build()) {
        assertThat(s.nextId()).isPositive();
      }
    }
  }

  @Test
  void isLegacy_oldFormsOnly() {
    assertThat(LegacyNamespaces.isLegacy("default.adc4e56c.worker.datacenter2", "default"))
        .isTrue();
    assertThat(LegacyNamespaces.isLegacy("default.adc4e56c.datacenter.worker", "default")).isTrue();
    assertThat(LegacyNamespaces.isLegacy("default.316cecf6.worker", "default")).isTrue();
    assertThat(LegacyNamespaces.isLegacy("default.t41-n10-s12-e1288834974657-u1", "default"))
        .isFalse();
    // a new key of the namespace "default.abc", whose name looks like a hash
    assertThat(LegacyNamespaces.isLegacy("default.abc.t41-n10-s12-e1288834974657-u1", "default"))
        .isFalse();
    assertThat(LegacyNamespaces.isLegacy("defaults.adc4e56c.worker", "default")).isFalse();
    // field names may hold - and _
    assertThat(LegacyNamespaces.isLegacy("hy.512fb9a0.dc-id.worker", "hy")).isTrue();
    assertThat(LegacyNamespaces.isLegacy("hy.512fb9a0.worker.dc_id3", "hy")).isTrue();
  }

  @Test
  void refuseLive_registryTooLargeToList_startsWithAWarningInsteadOfRefusing() {
    try (LeaseCoordinator memory = LeaseCoordinators.open(registry)) {
      holdUnder(memory, "orders.adc4e56c.worker.datacenter2");
      LeaseCoordinator unlistable =
          new LeaseCoordinator() {
            @Override
            public Lease acquire(AcquireRequest request) {
              return memory.acquire(request);
            }

            @Override
            public Lease renew(Lease lease, LeaseTerms terms) {
              return memory.renew(lease, terms);
            }

            @Override
            public void release(Lease lease, long issuedUpToMillis) {
              memory.release(lease, issuedUpToMillis);
            }

            @Override
            public LeaseListing list(String namespace) {
              return memory.list(namespace);
            }

            @Override
            public java.util.List<String> namespaces() {
              throw new NodeIdUnavailableException("cannot list the namespaces: TimeoutException");
            }

            @Override
            public void releaseAbandoned(String namespace, long nodeId) {
              memory.releaseAbandoned(namespace, nodeId);
            }

            @Override
            public String describe() {
              return "unlistable";
            }

            @Override
            public void close() {}
          };

      LegacyNamespaces.refuseLive(unlistable, "orders"); // no exception
      assertThatThrownBy(() -> LegacyNamespaces.refuseLive(memory, "orders"))
          .isInstanceOf(NodeIdUnavailableException.class);
    }
  }
}
