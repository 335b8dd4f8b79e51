package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.lease.LeaseCoordinators;
import io.snowid.lease.LeaseLostException;
import io.snowid.lease.LeaseWindowExceededException;
import io.snowid.node.NodeGrant;
import io.snowid.node.NodeLease;
import io.snowid.node.NodeStatus;
import io.snowid.testkit.ManualClock;
import io.snowid.testkit.ManualLease;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generator on a lease: deadlines (and a lead or a batch that runs into one), high-water marks,
 * clock steps and close.
 */
class SnowflakeLeaseRegressionTest {
  private final ManualClock clock = ManualClock.create();
  private final TimeSource time = TimeSource.monotonic(clock);
  private final long start = time.millis();

  private static NodeGrant grant(long validUntil, long startAfter) {
    return new NodeGrant(Map.of("datacenter", 1L, "worker", 1L), validUntil, startAfter, 1, "hand");
  }

  private long timeOf(Snowflake gen, long id) {
    return gen.layout().decode(id).timestampMillis();
  }

  // A start pushed past the lease's deadline by a high-water mark (a restart with the clock behind
  // it) waits for renewals, not an "InvalidSettingException: maxLead = 0 ms" at the first one.
  @Test
  void nextId_highWaterMarkBeyondTheLeaseDeadline_waitsForRenewals() {
    long highWater = start + 8_000;
    ManualLease lease = new ManualLease(grant(start + 4_000, highWater));
    Snowflake gen = Snowflake.builder().lease(lease).timeSource(time).build();
    // a healthy lease: renewed while the caller waits, 4 s ahead of the clock each time
    clock.beforeEveryPark(() -> lease.grant(grant(time.millis() + 4_000, highWater)));

    long id = gen.nextId();

    assertThat(timeOf(gen, id)).isEqualTo(highWater + 1);
    assertThat(timeOf(gen, id)).isLessThanOrEqualTo(time.millis());
  }

  // With a lead longer than the lease's window, a burst that runs into the deadline waits for the
  // next renewal, not an "InvalidSettingException: maxLead" at the first one.
  @Test
  void nextId_leadLongerThanTheLeaseWindow_waitsForRenewals() {
    ManualLease lease = new ManualLease(grant(start + 5, Long.MIN_VALUE));
    Snowflake gen =
        Snowflake.builder().lease(lease).timeSource(time).maxLead(Duration.ofMillis(20)).build();
    clock.beforeEveryPark(() -> lease.grant(grant(time.millis() + 5, Long.MIN_VALUE)));

    long last = 0;
    for (int i = 0; i < 4096 * 30; i++) {
      long id = gen.nextId();
      assertThat(id).isGreaterThan(last);
      last = id;
    }

    assertThat(timeOf(gen, last)).isLessThan(time.millis() + 5);
  }

  // A forward step of the wall clock larger than the lease time left asks for a renewal at once: a
  // healthy lease is not fenced until its next scheduled renewal ("was not renewed in time").
  @Test
  void nextId_wallClockStepsForwardPastTheDeadline_asksForARenewalAndIssues() {
    TimeSource wall = TimeSource.wallClock(clock);
    long deadline = wall.millis() + 3_000;
    ManualLease lease = new ManualLease(grant(deadline, Long.MIN_VALUE));
    Snowflake gen = Snowflake.builder().lease(lease).timeSource(wall).build();
    long before = gen.nextId();
    AtomicLong issuedWhenAsked = new AtomicLong();
    lease.onRenewalRequest(
        () -> {
          issuedWhenAsked.set(lease.lastIssuedMillis());
          lease.grant(grant(wall.millis() + 3_000, Long.MIN_VALUE));
        });
    clock.set(clock.wallInstant().plusSeconds(10));

    long id = gen.nextId();

    assertThat(id).isGreaterThan(before);
    assertThat(timeOf(gen, id)).isEqualTo(clock.wallInstant().toEpochMilli());
    assertThat(lease.renewalRequests()).isEqualTo(1);
    assertThat(issuedWhenAsked.get()).isLessThan(deadline);
  }

  @Test
  void nextId_deadlinePassedAndNoRenewalComes_throwsLeaseLostAfterAskingOnce() {
    TimeSource wall = TimeSource.wallClock(clock);
    ManualLease lease = new ManualLease(grant(wall.millis() + 3_000, Long.MIN_VALUE));
    Snowflake gen = Snowflake.builder().lease(lease).timeSource(wall).build();
    gen.nextId();
    clock.set(clock.wallInstant().plusSeconds(10));

    assertThatThrownBy(gen::nextId)
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining("not renewed in time");
    assertThatThrownBy(gen::nextId).isInstanceOf(LeaseLostException.class);
    assertThat(lease.renewalRequests()).isEqualTo(1); // once per grant: the second failed at once
  }

  // With maxLead, a burst that reaches a healthy lease's deadline waits for the renewal instead of
  // throwing LeaseLostException at once.
  @Test
  void nextId_leadRunsIntoAHealthyLeasesDeadline_waitsForTheRenewalInsteadOfFailing() {
    long now = time.millis();
    ManualLease lease = new ManualLease(grant(now + 5, Long.MIN_VALUE));
    Snowflake gen =
        Snowflake.builder().lease(lease).timeSource(time).maxLead(Duration.ofMillis(20)).build();
    DecodedId d;
    do { // fill every unit before the deadline
      d = gen.layout().decode(gen.nextId());
    } while (d.timestampMillis() < now + 4 || d.sequence() < 4095);
    clock.beforeNextPark(
        () -> lease.grant(grant(now + 1_000, Long.MIN_VALUE))); // the renewal arrives

    long id = gen.nextId();

    assertThat(gen.layout().decode(id).timestampMillis()).isGreaterThanOrEqualTo(now + 5);
  }

  @Test
  void nextId_leadRunsIntoAnExpiredDeadline_throwsLeaseLost() {
    ManualLease lease = new ManualLease(grant(time.millis() + 5, Long.MIN_VALUE));
    Snowflake gen =
        Snowflake.builder().lease(lease).timeSource(time).maxLead(Duration.ofMillis(20)).build();
    assertThatThrownBy(
            () -> {
              for (int i = 0; i < 4096 * 10; i++) {
                gen.nextId();
              }
            })
        .isInstanceOf(LeaseLostException.class);
  }

  @Test
  void nextIds_batchLargerThanTheLeaseWindow_failsNamingTheBatch() {
    ManualLease lease = new ManualLease(grant(time.millis() + 10, Long.MIN_VALUE));
    Snowflake gen =
        Snowflake.builder().lease(lease).timeSource(time).maxLead(Duration.ZERO).build();
    clock.beforeNextPark(
        () -> lease.grant(grant(time.millis() + 10, Long.MIN_VALUE))); // renewed, same window

    assertThatThrownBy(() -> gen.nextIds(new long[4096 * 50]))
        .isInstanceOfSatisfying(
            LeaseWindowExceededException.class,
            e -> {
              assertThat(e.count()).isEqualTo(4096 * 50);
              assertThat(e.spanMillis()).isGreaterThanOrEqualTo(50);
              assertThat(e.windowMillis()).isLessThanOrEqualTo(11);
            })
        .hasMessageContaining("batch");
  }

  // nextId() after close() says the generator was closed, since the close, not that the lease is
  // waiting for the node's high-water mark since Long.MIN_VALUE; so does the CLI when SIGTERM comes
  // during the first wait.
  @Test
  void nextId_afterClose_throwsLeaseLostSayingTheGeneratorWasClosed(@TempDir Path dir) {
    Snowflake gen =
        Snowflake.builder()
            .nodeSource("file:" + dir + "?ttl=2s&namespace=own")
            .timeSource(time)
            .build();
    gen.nextId();
    clock.advance(Duration.ofMillis(100));
    long closedAt = time.millis();
    gen.close();
    clock.advance(Duration.ofMillis(100));

    assertThatThrownBy(gen::nextId)
        .isInstanceOfSatisfying(
            LeaseLostException.class,
            e -> assertThat(e.since()).isEqualTo(Instant.ofEpochMilli(closedAt)))
        .hasMessageContaining("the generator was closed")
        .hasMessageNotContaining("high-water");
  }

  @Test
  void nextId_closedWhileWaitingForTheHighWaterMark_throwsLeaseLostSayingTheGeneratorWasClosed(
      @TempDir Path dir) {
    // a fresh id of a file: lease: the first ID waits one ttl, and the generator is closed then
    Snowflake gen =
        Snowflake.builder()
            .nodeSource("file:" + dir + "?ttl=2s&namespace=own")
            .timeSource(time)
            .build();
    AtomicLong closedAt = new AtomicLong();
    clock.beforeNextPark(
        () -> {
          closedAt.set(time.millis());
          gen.close();
        });

    assertThatThrownBy(gen::nextId)
        .isInstanceOfSatisfying(
            LeaseLostException.class,
            e -> assertThat(e.since()).isEqualTo(Instant.ofEpochMilli(closedAt.get())))
        .hasMessageContaining("the generator was closed")
        .hasMessageNotContaining("high-water");
  }

  @Test
  void nextId_callersLeaseClosedByItsOwner_throwsLeaseLostSayingItWasReleased(@TempDir Path dir) {
    NodeLease lease =
        LeaseCoordinators.lease(
            "file:" + dir + "?ttl=2s&namespace=own", Layout.twitter(), Map.of(), time);
    Snowflake gen = Snowflake.builder().lease(lease).timeSource(time).build();
    gen.nextId();
    lease.close();

    assertThatThrownBy(gen::nextId)
        .isInstanceOfSatisfying(
            LeaseLostException.class,
            e -> assertThat(e.since()).isAfter(Instant.parse("2000-01-01T00:00:00Z")))
        .hasMessageContaining("was released");
  }

  // While the generator waits for its clock to pass the node's high-water mark (a fresh file: id
  // waits one ttl), its status is not held, so /health is not UP while /id would block.
  @Test
  void nodeStatus_clockNotPastTheHighWaterMark_isNotHeldAndSaysUntilWhen() {
    long highWater = start + 2_000;
    ManualLease lease = new ManualLease(grant(start + 4_000, highWater));
    Snowflake gen = Snowflake.builder().lease(lease).timeSource(time).build();

    NodeStatus waiting = gen.nodeStatus();
    clock.advance(Duration.ofMillis(2_000));
    NodeStatus atTheMark = gen.nodeStatus();
    clock.advance(Duration.ofMillis(1));
    NodeStatus past = gen.nodeStatus();

    assertThat(waiting.held()).isFalse();
    assertThat(waiting.detail())
        .isEqualTo(
            "the first ID waits until "
                + Instant.ofEpochMilli(highWater)
                + " (the node's high-water mark)");
    assertThat(waiting.values()).containsEntry("worker", 1L);
    assertThat(atTheMark.held()).isFalse();
    assertThat(past.held()).isTrue();
    assertThat(timeOf(gen, gen.nextId())).isEqualTo(highWater + 1);
  }

  @Test
  void nodeStatus_staticValuesAndStartAfterAhead_isNotHeldUntilThen() {
    Snowflake gen =
        Snowflake.builder()
            .node("datacenter", 1)
            .node("worker", 1)
            .timeSource(time)
            .startAfter(start + 300)
            .build();

    assertThat(gen.nodeStatus().held()).isFalse();
    assertThat(gen.nodeStatus().detail()).startsWith("the first ID waits until");
    clock.advance(Duration.ofMillis(301));
    assertThat(gen.nodeStatus().held()).isTrue();
    assertThat(gen.nodeStatus().detail()).isEqualTo("static node values");
  }
}
