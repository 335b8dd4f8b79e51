package io.snowid.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.snowid.Layout;
import io.snowid.Snowflake;
import io.snowid.TimeSource;
import io.snowid.node.NodeLease;
import io.snowid.node.NodeStatus;
import io.snowid.testkit.ScriptedRegistry;
import io.snowid.testkit.SimulatedTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The counterexamples of the lease model (model/check.sh --removals: each removes one mechanism),
 * replayed on the real lease and generator with the mechanism in place: each asserts the safe
 * outcome where the model, without it, issued an ID twice or after the registry's expiry
 * (docs/design.md, "A checked model of the lease").
 *
 * <p>Processes are simulated hosts on one real time, leasing from a {@link ScriptedRegistry} whose
 * clock is that real time. Lease time 5 min, so the margin is 1 min and a grant covers 4 min from
 * its request; skew and maxSkew 1 min, maxTtl 5 min, so a registry that lost its state holds
 * newcomers until 6 min 1 s after its first acquisition. Renewals run when a test asks for them
 * (the scheduled ones come every 100 s of the JVM's own time: never within a test).
 */
class LeaseModelTrailsTest {
  private static final Duration TTL = Duration.ofMinutes(5);
  private static final Duration GRANT = Duration.ofMinutes(4); // ttl less the margin
  private static final Duration LOST_WAIT = Duration.ofSeconds(361); // maxTtl + maxSkew + 1 s
  private static final Duration WITHIN_SKEW = Duration.ofSeconds(59);
  private static final Duration MS = Duration.ofMillis(1);

  private final SimulatedTime time = SimulatedTime.at(Instant.parse("2026-01-01T00:00:00Z"));
  private final ScriptedRegistry registry = new ScriptedRegistry(time);
  private final long t0 = time.realMillis();
  private final List<Process> processes = new ArrayList<>();

  /** A process on a host of its own: a lease of the registry and its generator. */
  private final class Process {
    final SimulatedTime.Host host;
    final NodeLease lease;
    final Snowflake generator;
    final Set<Long> issued = new LinkedHashSet<>();

    Process(String name, SimulatedTime.Host host, TimeSource source) {
      this.host = host;
      this.lease =
          LeaseCoordinators.lease(
              registry,
              LeaseOptions.parse(
                  "scripted?namespace=trail-" + name + "&ttl=5m&skew=1m&maxTtl=5m&maxSkew=1m", TTL),
              Layout.twitter(),
              Map.of("datacenter", 1L),
              source);
      this.generator = Snowflake.builder().lease(lease).timeSource(source).build();
      processes.add(this);
    }

    /** The ID the generator issues now without waiting, kept; {@link Snowflake#NO_ID} if none. */
    long take() {
      long id = generator.tryNextId();
      if (id != Snowflake.NO_ID) {
        issued.add(id);
      }
      return id;
    }

    /** The worker its first ID was issued under. */
    long node() {
      return generator.layout().decode(issued.iterator().next()).field("worker");
    }

    /** One renewal, now, and its answer taken (renewed or not). */
    void renew() {
      NodeStatus before = lease.status();
      long calls = before.renewals() + before.renewalFailures();
      lease.requestRenewal();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> lease.status().renewals() + lease.status().renewalFailures() > calls);
    }

    /** Real time passes until {@code realMillis}, the process renewing every minute meanwhile. */
    void liveUntil(long realMillis) {
      while (time.realMillis() < realMillis) {
        time.advance(Duration.ofMillis(Math.min(60_000, realMillis - time.realMillis())));
        renew();
      }
    }

    long millisOf(long id) {
      return generator.layout().decode(id).timestampMillis();
    }
  }

  private Process process(String name) {
    return process(name, time.host());
  }

  private Process process(String name, SimulatedTime.Host host) {
    return new Process(name, host, TimeSource.wallClock(host));
  }

  /** A process whose lease and generator read the default time source of its host. */
  private Process onDefaultSource(String name) {
    SimulatedTime.Host host = time.host();
    return new Process(name, host, TimeSource.monotonic(host));
  }

  @AfterEach
  void closeAll() {
    for (Process p : processes) {
      p.generator.close();
      p.lease.close();
    }
  }

  /**
   * NO_HWM: the holder's clock is ahead (within the skew), it issues until its deadline and dies;
   * after the registry's expiry a newcomer whose clock is behind (within the skew) takes the id,
   * its clock reading the units the old holder issued last. The mark the old grant recorded before
   * it counted holds the newcomer past everything the old holder could issue.
   */
  @Test
  void newcomerClockBehindOnAnExpiredIdOfAHolderAhead_waitsPastTheOldGrantsMark() {
    Process a = process("mark-a", time.host().step(WITHIN_SKEW));
    a.take();
    time.advance(GRANT.minus(MS));
    long last = a.take(); // the last unit of a's grant: t0 + 59 s + 4 min - 1 ms
    time.advance(TTL.minus(GRANT).plus(MS)); // a is killed: the registry expires its lease now

    Process b = process("mark-b", time.host().step(WITHIN_SKEW.negated()));
    assertThat(b.take()).isEqualTo(Snowflake.NO_ID); // its clock reads t0 + 4 min 1 s
    long deadline = a.millisOf(last) + 1; // the mark a's grant recorded
    b.liveUntil(deadline + WITHIN_SKEW.toMillis() + 1); // b's clock: 1 ms past it
    long first = b.take();

    assertThat(first).isNotEqualTo(Snowflake.NO_ID);
    assertThat(b.millisOf(first)).isEqualTo(deadline + 1);
    assertThat(b.node()).isEqualTo(a.node());
    assertThat(b.issued).doesNotContainAnyElementsOf(a.issued);
  }

  /**
   * NO_HWM, for a renewal: the holder ahead (within the skew) renews, issues until that renewal's
   * deadline and dies; a newcomer behind (within the skew) takes the id at the registry's expiry.
   * The mark the renewal recorded before it counted holds the newcomer past that deadline.
   */
  @Test
  void newcomerClockBehindOnAnIdExpiredAfterARenewal_waitsPastTheRenewalsMark() {
    Process a = process("renewed-mark-a", time.host().step(WITHIN_SKEW));
    a.take();
    time.advance(Duration.ofMinutes(1));
    a.renew(); // at real t0 + 1 min: a may issue until its clock reads t0 + 5 min 59 s
    time.advance(GRANT.minus(MS));
    long last = a.take(); // the renewal's last unit: t0 + 5 min 59 s - 1 ms
    time.advance(TTL.minus(GRANT).plus(MS)); // a is killed: the registry expires its lease now

    Process b = process("renewed-mark-b", time.host().step(WITHIN_SKEW.negated()));
    assertThat(b.take()).isEqualTo(Snowflake.NO_ID); // its clock reads t0 + 5 min 1 s
    long deadline = a.millisOf(last) + 1; // the mark a's renewal recorded
    b.liveUntil(deadline + WITHIN_SKEW.toMillis() + 1); // b's clock: 1 ms past it
    long first = b.take();

    assertThat(first).isNotEqualTo(Snowflake.NO_ID);
    assertThat(b.millisOf(first)).isEqualTo(deadline + 1);
    assertThat(b.node()).isEqualTo(a.node());
    assertThat(b.issued).doesNotContainAnyElementsOf(a.issued);
  }

  /**
   * NO_SENT: a renewal's reply arrives later than the registry's expiry of the lease it renewed,
   * and a newcomer takes the id. The deadline counts from before the request, so the late grant
   * ends before that expiry and the old holder issues nothing more.
   */
  @Test
  void renewalReplyLaterThanTheRegistrysExpiry_grantsNothingPastIt() {
    Process a = process("sent-a");
    a.take();
    time.advance(Duration.ofMinutes(1));
    registry.replyLate(TTL.plusMinutes(1));
    a.renew(); // renewed at t0 + 1 min: expiry t0 + 6 min; the reply comes at t0 + 7 min

    Process b = process("sent-b");
    long newcomers = b.take();

    assertThat(a.take()).isEqualTo(Snowflake.NO_ID);
    assertThat(a.lease.status().held()).isFalse();
    assertThat(newcomers).isNotEqualTo(Snowflake.NO_ID);
    assertThat(b.millisOf(newcomers)).isEqualTo(t0 + Duration.ofMinutes(7).toMillis());
    assertThat(b.node()).isEqualTo(a.node());
    assertThat(b.issued).doesNotContainAnyElementsOf(a.issued);
  }

  /**
   * NO_FENCE: the holder's wall clock steps back by the grant's length and it is not renewed; at
   * the registry's expiry its clock reads inside its grant and above everything it issued. The
   * deadline in real time stops it.
   */
  @Test
  void wallClockSteppedBackAndNoRenewal_issuesNothingAtTheRegistrysExpiry() {
    Process a = process("fence-a");
    a.take();
    a.host.step(GRANT.negated());
    time.advance(TTL.minus(MS)); // a's clock: t0 + 1 min - 1 ms, above its first ID, below 4 min
    assertThat(a.take()).isEqualTo(Snowflake.NO_ID); // past the grant's 4 min of real time

    time.advance(MS); // the registry's expiry of a's lease
    Process b = process("fence-b");

    assertThat(a.take()).isEqualTo(Snowflake.NO_ID);
    assertThat(b.take()).isNotEqualTo(Snowflake.NO_ID);
    assertThat(b.node()).isEqualTo(a.node());
    assertThat(a.issued).hasSize(1);
  }

  /**
   * NO_SLEWBOUND: the holder is on the default time source and its wall clock steps back far (NTP
   * sets it behind real time); nothing renews the lease. The source does not follow the step: it
   * slews towards the wall clock and has no deadline in real time. Its rate while it slews, 0.9 of
   * real time, above the lease's (ttl - margin) / ttl = 0.8, brings it to the grant's deadline
   * before the registry's expiry, so at that expiry it reads past the grant.
   */
  @Test
  void defaultSourceSlewingAfterAStepBackAndNoRenewal_issuesNothingAtTheRegistrysExpiry() {
    Process a = onDefaultSource("slew-a");
    a.take();
    a.host.step(Duration.ofMinutes(-10));
    time.advance(Duration.ofSeconds(1));
    a.take(); // the source's resync finds the wall clock 10 min behind: it slews from here
    time.advance(TTL.minusSeconds(1)); // the registry's expiry of a's lease
    long atExpiry = a.take(); // the source reads 4 min 30.1 s: 1 s, then 299 s at 0.9

    Process b = process("slew-b");

    assertThat(atExpiry).isEqualTo(Snowflake.NO_ID);
    assertThat(b.take()).isNotEqualTo(Snowflake.NO_ID);
    assertThat(b.node()).isEqualTo(a.node());
    assertThat(a.issued).hasSize(2);
    assertThat(b.issued).doesNotContainAnyElementsOf(a.issued);
  }

  /**
   * NO_SKEW: the holder's clock steps ahead by more than a registry's loss wait and it renews; the
   * registry then loses its state and a newcomer waits out the loss by the registry's clock. The
   * skew check fences the holder at that renewal, so the units its clock reads ahead are never
   * issued, and the newcomer's first units are its own.
   */
  @Test
  void holderClockAheadBeyondTheLossWaitAndRegistryLost_newcomerDoesNotRepeatItsUnits() {
    Process a = process("skew-a");
    a.take();
    Duration ahead = LOST_WAIT.plus(MS);
    a.host.step(ahead);
    a.renew();
    long aheadTake = a.take(); // at real t0, a's clock reads t0 + loss wait + 1 ms

    registry.loseState();
    Process b = process("skew-b");
    assertThat(b.take()).isEqualTo(Snowflake.NO_ID); // waits out the loss
    b.liveUntil(t0 + ahead.toMillis());
    long first = b.take();

    assertThat(aheadTake).isEqualTo(Snowflake.NO_ID);
    assertThat(a.lease.status().detail()).contains("clock skew");
    assertThat(first).isNotEqualTo(Snowflake.NO_ID);
    assertThat(b.millisOf(first)).isEqualTo(t0 + ahead.toMillis());
    assertThat(b.node()).isEqualTo(a.node());
    assertThat(b.issued).doesNotContainAnyElementsOf(a.issued);
  }

  /**
   * NO_WAIT: the holder issues and closes; in the same millisecond a newcomer takes the id. It
   * waits past the start the release recorded (the last unit issued), not only past the grant.
   */
  @Test
  void newcomerInTheMillisecondTheHolderReleasedIn_startsAfterIt() {
    Process a = process("wait-a");
    long last = a.take();
    a.lease.close();

    Process b = process("wait-b");
    assertThat(b.take()).isEqualTo(Snowflake.NO_ID);
    time.advance(MS);
    long first = b.take();

    assertThat(first).isNotEqualTo(Snowflake.NO_ID);
    assertThat(b.millisOf(first)).isGreaterThan(a.millisOf(last));
    assertThat(b.node()).isEqualTo(a.node());
    assertThat(b.issued).doesNotContainAnyElementsOf(a.issued);
  }

  /**
   * NO_LOSTWAIT: the registry loses its state under a live holder, which goes on issuing until its
   * deadline; a newcomer gets its id at once. The registry's lostUntil holds the newcomer past any
   * holder it forgot.
   */
  @Test
  void registryLostUnderALiveHolder_newcomerOnItsIdStartsAfterItsDeadline() {
    Process a = process("lost-a");
    a.take();
    registry.loseState();

    Process b = process("lost-b");
    assertThat(b.take()).isEqualTo(Snowflake.NO_ID);
    time.advance(GRANT.minus(MS));
    a.take(); // a, unaware, issues until its deadline
    assertThat(b.take()).isEqualTo(Snowflake.NO_ID);
    b.liveUntil(t0 + LOST_WAIT.toMillis() + 1);
    long first = b.take();

    assertThat(a.issued).hasSize(2);
    assertThat(first).isNotEqualTo(Snowflake.NO_ID);
    assertThat(b.millisOf(first)).isEqualTo(t0 + LOST_WAIT.toMillis() + 1);
    assertThat(b.node()).isEqualTo(a.node());
    assertThat(b.issued).doesNotContainAnyElementsOf(a.issued);
  }
}
