package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.lease.LeaseLostException;
import io.snowid.node.NodeGrant;
import io.snowid.testkit.ManualClock;
import io.snowid.testkit.ManualLease;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Guarantee 6 inside the generator: grants, fencing, rebinding to new node values. */
class SnowflakeLeaseTest {
  private final ManualClock clock = ManualClock.at(Instant.parse("2025-06-01T00:00:00Z"));
  private final TimeSource time = TimeSource.monotonic(clock);

  /** Every test starts at the same instant with the same values: its generators must go. */
  @RegisterExtension final Built built = new Built();

  private ManualLease leaseWith(NodeGrant first) {
    ManualLease lease = new ManualLease(first);
    gen = Snowflake.builder().lease(lease).timeSource(time).build();
    built.keep(gen);
    return lease;
  }

  private Snowflake gen;

  private static NodeGrant grant(long dc, long worker, long validUntil, long startAfter, long acq) {
    return new NodeGrant(
        Map.of("datacenter", dc, "worker", worker), validUntil, startAfter, acq, "hand");
  }

  @Test
  void nextId_grantDeadlinePassed_throwsLeaseLostNamingNodeAndSince() {
    long now = time.millis();
    leaseWith(grant(1, 2, now + 100, Long.MIN_VALUE, 1));
    long id = gen.nextId();
    assertThat(gen.layout().decode(id).fields()).containsEntry("worker", 2L);

    clock.advance(Duration.ofMillis(100));

    assertThatThrownBy(gen::nextId)
        .isInstanceOfSatisfying(
            LeaseLostException.class,
            e -> {
              assertThat(e.node()).containsEntry("worker", 2L);
              assertThat(e.since()).isEqualTo(Instant.ofEpochMilli(now + 100));
            })
        .hasMessageContaining("not renewed in time");
  }

  @Test
  void nextId_neverCarriesATimeAtOrPastTheDeadline() {
    long now = time.millis();
    leaseWith(grant(1, 2, now + 3, Long.MIN_VALUE, 1));
    long last = 0;
    int issued = 0;
    try {
      for (; issued < 100_000; issued++) {
        last = gen.nextId(); // frozen clock: the sequence runs out and carries to later units
      }
    } catch (LeaseLostException expected) {
      // reached the deadline
    }
    assertThat(issued).isBetween(2 * 4096, 3 * 4096);
    assertThat(gen.layout().decode(last).timestampMillis()).isEqualTo(now + 2);
  }

  @Test
  void renewal_sameAcquisition_resumesWithoutSkippingAUnit() {
    long now = time.millis();
    ManualLease lease = leaseWith(grant(1, 2, now + 10, Long.MIN_VALUE, 1));
    long before = gen.nextId();
    clock.advance(Duration.ofMillis(10));
    assertThatThrownBy(gen::nextId).isInstanceOf(LeaseLostException.class);

    lease.grant(grant(1, 2, now + 1000, Long.MIN_VALUE, 1));

    long after = gen.nextId();
    assertThat(after).isGreaterThan(before);
    assertThat(gen.layout().decode(after).timestampMillis()).isEqualTo(now + 10);
  }

  @Test
  void newAcquisition_otherValues_idsStayIncreasingAndStartAfterHighWater() {
    long now = time.millis();
    ManualLease lease = leaseWith(grant(3, 31, now + 1000, Long.MIN_VALUE, 1));
    long before = gen.nextId();

    // smaller node values, and a high-water mark 50 ms ahead: the next ID still grows
    lease.grant(grant(0, 0, now + 1000, now + 50, 2));

    long after = gen.nextId();
    DecodedId d = gen.layout().decode(after);
    assertThat(after).isGreaterThan(before);
    assertThat(d.fields()).containsEntry("datacenter", 0L).containsEntry("worker", 0L);
    assertThat(d.timestampMillis()).isEqualTo(now + 51);
    assertThat(gen.node()).containsEntry("worker", 0L);
  }

  @Test
  void lastIssued_reportsTheLatestReservedTime() {
    long now = time.millis();
    ManualLease lease = leaseWith(grant(1, 1, now + 1000, Long.MIN_VALUE, 1));
    gen.nextId();
    clock.advance(Duration.ofMillis(7));
    gen.nextId();
    assertThat(lease.lastIssuedMillis()).isEqualTo(now + 7);
  }

  @Test
  void grantNotFittingTheLayout_fencesWithTheReason() {
    long now = time.millis();
    leaseWith(grant(1, 99, now + 1000, Long.MIN_VALUE, 1));
    assertThatThrownBy(gen::nextId)
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining("does not fit");
  }

  @Test
  void close_ownedFileLease_releasesAndStopsIssuing(@TempDir Path dir) {
    Snowflake owned =
        Snowflake.builder()
            .nodeSource("file:" + dir + "?ttl=2s&namespace=own")
            .timeSource(time)
            .build();
    assertThat(owned.nodeStatus().detail())
        .startsWith("the first ID waits until"); // a fresh id waits a ttl
    assertThat(owned.nodeStatus().source()).contains("file:");
    owned.nextId();
    assertThat(owned.nodeStatus().held()).isTrue();
    Snowflake second =
        Snowflake.builder()
            .nodeSource("file:" + dir + "?ttl=2s&namespace=own")
            .timeSource(time)
            .build();
    assertThat(second.node().get("worker")).isNotEqualTo(owned.node().get("worker"));

    owned.close();
    owned.close();

    assertThatThrownBy(owned::nextId).isInstanceOf(LeaseLostException.class);
    assertThat(owned.nodeStatus().held()).isFalse();
    assertThat(owned.nodeStatus().detail()).isEqualTo("released");
    second.close();
  }

  @Test
  void build_sameBuilderTwiceWithALeaseSource_eachGeneratorLeasesItsOwnNode(@TempDir Path dir) {
    SnowflakeBuilder builder =
        Snowflake.builder().nodeSource("file:" + dir + "?ttl=2s&namespace=own").timeSource(time);
    Snowflake first = builder.build();
    Snowflake second = builder.build();
    try {
      assertThat(second.node()).isNotEqualTo(first.node());
      first.close();
      second.nextId();
      assertThat(second.nodeStatus().held()).isTrue();
    } finally {
      first.close();
      second.close();
    }
  }

  @Test
  void close_afterAClockbackStep_nextHolderStartsAfterTheHighestIssuedTime(@TempDir Path dir) {
    ManualClock wall = ManualClock.at(Instant.parse("2025-06-01T00:00:00Z"));
    Supplier<Snowflake> holder =
        () ->
            Snowflake.builder()
                .layout("time=41,worker=2,clockback=2,sequence=12,epoch=2020-01-01T00:00:00Z")
                .nodeSource("file:" + dir + "?ttl=10s&instance=svc&namespace=own")
                .timeSource(TimeSource.wallClock(wall))
                .clockPolicy(ClockPolicy.CLOCKBACK)
                .build();
    Snowflake first = holder.get();
    first.nextId();
    wall.advance(Duration.ofSeconds(1));
    long highest = first.layout().decode(first.nextId()).timestampMillis();
    wall.stepBack(Duration.ofMillis(900));
    assertThat(first.layout().decode(first.nextId()).field("clockback")).isEqualTo(1);
    first.close(); // records what it issued as the node's high-water mark

    Snowflake next = holder.get();
    try {
      assertThat(next.node()).isEqualTo(first.node());
      assertThat(next.layout().decode(next.nextId()).timestampMillis()).isGreaterThan(highest);
    } finally {
      next.close();
    }
  }

  @Test
  void nodeSource_static_usesExactlyTheValues() {
    Snowflake s =
        Snowflake.builder().nodeSource("static:worker=7,datacenter=3").timeSource(time).build();
    assertThat(s.node()).containsEntry("worker", 7L).containsEntry("datacenter", 3L);
    assertThat(s.nodeStatus().held()).isTrue();
  }

  @Test
  void nodeSource_badSpecs_throwNamingTheSetting() {
    assertThatThrownBy(
            () -> Snowflake.builder().nodeSource("static:worker=40,datacenter=1").build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("0..31");
    assertThatThrownBy(() -> Snowflake.builder().nodeSource("static:worker").build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("node");
    assertThatThrownBy(() -> Snowflake.builder().nodeSource("zookeeper://x").build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("(file:, flaky:)")
        .hasMessageContaining("io.snowid:snowid-zookeeper");
    assertThatThrownBy(() -> Snowflake.builder().nodeSource("file:/tmp/x?ttl=1h5m").build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("ttl");
    assertThatThrownBy(() -> Snowflake.builder().nodeSource("file:/tmp/x?fields=sequence").build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("fields");
  }
}
