package io.snowid.lease;

import io.snowid.ClockMovedBackwardsException;
import io.snowid.Durations;
import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import io.snowid.TimeSource;
import io.snowid.node.GrantListener;
import io.snowid.node.NodeGrant;
import io.snowid.node.NodeIdUnavailableException;
import io.snowid.node.NodeLease;
import io.snowid.node.NodeStatus;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/** Holds one lease of a coordinator: acquires, renews in the background, fences, releases. */
final class LeaseHolder implements NodeLease {
  /*
   * Fencing. Before each acquisition or renewal the holder reads its clock (sent) and asks the
   * coordinator to record `sent + ttl - margin` as the id's high-water mark: the latest ID time it
   * may issue until the next renewal. Only once the coordinator confirmed does the generator get
   * that deadline (capped by the lease time the coordinator granted, counted from `sent`, not from
   * the answer). So (1) the generator stops before the coordinator can expire the lease, because
   * the deadline is measured from before the request reached it, and (2) the next holder starts
   * after every ID this one could have issued, because it starts after the high-water mark,
   * whatever the clocks of the two hosts say. (1) holds for a time source that runs slower than
   * real time, at rate r, as long as r > (ttl - margin) / ttl, at most 0.8 with the margin below:
   * the default source runs at 0.9 at its slowest (MonotonicTimeSource.SLEW_RATE). A renewal that
   * fails leaves the old deadline in force; the generator stops at it by itself and resumes when a
   * renewal or an acquisition succeeds. A renewal never moves the deadline back, though after a
   * step back of this clock it computes an earlier one: the deadline in force was recorded in the
   * high-water mark when it was confirmed, so (2) holds for it whatever this clock does since.
   *
   * Real time. (1) holds in real time only for a clock that does not step back: after a step back
   * the deadline above comes later by the step. So each grant also carries its deadline on the time
   * source's monotonic clock: nanoTime read before the request, plus the same lease time less the
   * margin. It moves with each confirmed renewal (a later send: it never moves back but by a
   * shorter grant, which is safe) and is cut to now by a fence. A generator on a source that may
   * step back stops at whichever deadline comes first.
   *
   * Rejoining. A registry whose clock reads behind this one by more than the skew fences the
   * holder. If the generator's source ran ahead of its wall clock (a forward step NTP took back),
   * the generator fences itself and puts the source back on the wall clock (GrantListener
   * .rejoinWallClock); the grant is then cut at a reading from after that, and the holder renews
   * at once, so every deadline in force counts from a reading on the wall clock again
   * (docs/design.md section 4, "Rejoining the wall clock").
   *
   * Scheduling. One chain of tasks runs on the scheduler: each renewal (or acquisition retry)
   * schedules the next, replacing any still pending, so a renewal run on a generator's request
   * (its deadline passed while the lease may be healthy: a forward step of the clock, a late
   * renewal) takes the place of the scheduled one instead of starting a second chain.
   */
  private static final System.Logger LOG = System.getLogger("io.snowid.lease");

  /** A start wait longer than this is logged when the lease is taken (docs/node-ids.md). */
  static final Duration ANNOUNCED_WAIT = Duration.ofSeconds(1);

  /** Before a generator is attached: grants go nowhere, nothing was issued. */
  private static final GrantListener UNATTACHED =
      new GrantListener() {
        @Override
        public void onGrant(NodeGrant grant) {}

        @Override
        public long lastIssuedMillis() {
          return Long.MIN_VALUE;
        }
      };

  private final LeaseCoordinator coordinator;
  private final boolean ownsCoordinator;
  private final LeaseOptions options;
  private final TimeSource time;
  private final Layout layout;
  private final String namespace;
  private final long size;
  private final long mask;
  private final long match;
  private final Duration margin;
  private final ScheduledExecutorService scheduler;
  private final AtomicLong renewals = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private long acquisitions;

  private volatile Lease lease;
  private volatile NodeGrant grant;
  private volatile long published; // grants handed to the generator; written under publishLock
  private volatile String detail = "held";
  private volatile String startReason; // why the grant's start lies ahead; null: nothing to say
  private volatile boolean closed;
  private volatile String releaseFailure; // why close() could not release; null: released
  private volatile boolean lost; // fenced or not acquired again: a renewal now would not help
  private final Object scheduleLock = new Object();
  private Future<?> next; // guarded by scheduleLock: the next renewal or acquisition retry
  private Future<?> onDemand; // guarded by scheduleLock: the renewal a generator asked for
  private final Object publishLock = new Object();
  private boolean attached;
  private volatile GrantListener listener = UNATTACHED;

  LeaseHolder(
      LeaseCoordinator coordinator,
      boolean ownsCoordinator,
      LeaseOptions options,
      TimeSource time,
      Layout layout,
      Map<String, Long> fixed,
      List<Layout.Field> leased) {
    this.coordinator = coordinator;
    this.ownsCoordinator = ownsCoordinator;
    this.options = options;
    this.time = time;
    this.layout = layout;
    this.namespace = namespaceKey(options.namespace(), layout);
    this.size = layout.nodeCount();
    this.mask = layout.nodeMask(fixed.keySet());
    this.match = layout.packNode(fixed) & mask;
    long ttl = options.ttl().toMillis();
    this.margin = Duration.ofMillis(Math.max(ttl / 5, Math.min(50, ttl / 2)));
    this.scheduler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "snowid-lease " + where());
              t.setDaemon(true);
              return t;
            });
    try {
      LegacyNamespaces.refuseLive(coordinator, options.namespace());
      acquire();
    } catch (RuntimeException e) {
      scheduler.shutdownNow();
      if (ownsCoordinator) {
        coordinator.close();
      }
      throw e;
    }
    schedule(renewEvery()); // from now on, attached or not
  }

  /**
   * The namespace key: the user's namespace name and the layout's ID space ({@link
   * Layout#idSpace()}). Ids are the packed node values of that space, so every holder of it
   * contends for the same keys, whichever fields it fixes and however its field list is written
   * (docs/design.md, "The lease").
   */
  static String namespaceKey(String namespace, Layout layout) {
    return namespace + '.' + layout.idSpace();
  }

  @Override
  public String namespace() {
    return options.namespace();
  }

  /** The coordinator's description, as it may be shown. */
  private String where() {
    return Secrets.scrub(coordinator.describe());
  }

  /** The refusal of a start whose first ID lies beyond startWait past this clock. */
  private ClockMovedBackwardsException behindHighWater(long nodeId, long highWater, long now) {
    return new ClockMovedBackwardsException(
        highWater,
        now,
        "node id "
            + nodeId
            + " of "
            + where()
            + " was used up to this high-water mark; this clock is behind it by more than"
            + " startWait "
            + Durations.format(options.startWait())
            + " (after a registry lost its state, a newcomer waits up to maxTtl + 2 × maxSkew"
            + " + 1s = "
            + Durations.format(options.limits().lossWait())
            + ")");
  }

  private void acquire() {
    long sentNanos = time.nanoTime(); // before the request, as sent: the deadline is not late
    long sent = time.millis();
    long mayIssue = sent + options.ttl().toMillis() - margin.toMillis();
    Lease l;
    try {
      l =
          coordinator.acquire(
              new AcquireRequest(
                  namespace,
                  size,
                  mask,
                  match,
                  options.instance(),
                  new LeaseTerms(options.ttl(), sent, mayIssue),
                  options.limits(),
                  options.startWait()));
    } catch (StartRefusedException e) {
      throw behindHighWater(e.nodeId(), e.startAfterMillis(), time.millis());
    }
    long received = time.millis();
    String skew = skewProblem(l, sent, received);
    if (skew != null) {
      coordinator.release(l, l.highWaterMillis());
      if (l.coordinatorNowMillis() < sent && listener.rejoinWallClock(time)) {
        skew += "; the time source rejoined the wall clock";
      }
      throw new NodeIdUnavailableException(skew);
    }
    if (l.highWaterMillis() != Long.MIN_VALUE
        && l.highWaterMillis() - received > options.startWait().toMillis()) {
      coordinator.release(l, l.highWaterMillis());
      throw behindHighWater(l.nodeId(), l.highWaterMillis(), received);
    }
    if ((l.nodeId() & mask) != match || l.nodeId() < 0 || l.nodeId() >= size) {
      coordinator.release(l, l.highWaterMillis());
      throw new NodeIdUnavailableException(
          where() + " granted node id " + l.nodeId() + " outside the request");
    }
    Map<String, Long> values = layout.unpackNode(l.nodeId());
    this.lease = l;
    long deadline = deadline(l, sent, mayIssue);
    this.grant =
        new NodeGrant(
            values,
            deadline,
            l.highWaterMillis(),
            ++acquisitions,
            where() + " node id " + l.nodeId(),
            OptionalLong.of(realDeadline(sentNanos, sent, deadline)));
    this.detail = "held";
    this.lost = false;
    LOG.log(
        Level.INFO,
        "node {0} leased from {1} (namespace {2}, id {3} of {4}, instance {5})",
        values,
        where(),
        namespace,
        l.nodeId(),
        size,
        options.instance());
    long wait = l.highWaterMillis() == Long.MIN_VALUE ? 0 : l.highWaterMillis() - received;
    if (wait > ANNOUNCED_WAIT.toMillis()) {
      String why =
          l.startReason().isEmpty()
              ? "IDs start after the high-water mark the id's last holder recorded"
              : l.startReason();
      this.startReason = why;
      LOG.log(
          Level.INFO,
          "node {0} from {1}: the first ID waits {2}, until {3}: {4}",
          values,
          where(),
          Durations.format(Duration.ofMillis((wait + 50) / 100 * 100)),
          Instant.ofEpochMilli(l.highWaterMillis()),
          why);
    } else {
      this.startReason = null;
    }
  }

  private long deadline(Lease l, long sent, long mayIssue) {
    long granted = l.expiresAtMillis() - l.coordinatorNowMillis();
    return Math.min(sent + granted - margin.toMillis(), mayIssue);
  }

  /** The deadline {@code deadline} (ID time) on the monotonic clock: as long after sentNanos. */
  private static long realDeadline(long sentNanos, long sent, long deadline) {
    return sentNanos + TimeUnit.MILLISECONDS.toNanos(deadline - sent);
  }

  /** Why the coordinator's clock is too far from this one; null if it is not, or it has none. */
  private String skewProblem(Lease l, long sent, long received) {
    if (!coordinator.hasOwnClock()) {
      return null; // it reported this clock: a difference is this clock stepping mid-call
    }
    long mid = sent + (received - sent) / 2;
    long allowed = options.skew().toMillis() + (received - sent) / 2;
    long diff = l.coordinatorNowMillis() - mid;
    if (Math.abs(diff) <= allowed) {
      return null;
    }
    return "clock skew: "
        + where()
        + " reads "
        + Instant.ofEpochMilli(l.coordinatorNowMillis())
        + ", this host "
        + Instant.ofEpochMilli(mid)
        + " ("
        + Durations.format(Duration.ofMillis(diff))
        + " apart; allowed skew "
        + Durations.format(options.skew())
        + ")";
  }

  @Override
  public void attach(GrantListener generator) {
    synchronized (publishLock) {
      if (attached) {
        throw new InvalidSettingException(
            "lease", "already attached to a generator", "one generator per lease");
      }
      attached = true;
      this.listener = generator;
      generator.onGrant(grant);
    }
  }

  private long renewEvery() {
    return Math.max(1, options.renewEvery().toMillis());
  }

  private void schedule(long delayMillis) {
    schedule(this::renew, delayMillis);
  }

  /** Schedules the next task of the chain, replacing the pending one (see Scheduling). */
  private void schedule(Runnable task, long delayMillis) {
    synchronized (scheduleLock) {
      if (closed) {
        return;
      }
      if (next != null) {
        next.cancel(false); // a pending one is replaced; the task calling this runs on regardless
      }
      try {
        next = scheduler.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException e) {
        // closed meanwhile
      }
    }
  }

  @Override
  public boolean requestRenewal() {
    long before = published;
    Future<?> renewal;
    synchronized (scheduleLock) {
      if (closed || lost) {
        return false;
      }
      if (onDemand == null || onDemand.isDone()) {
        try {
          onDemand = scheduler.submit(this::renew);
        } catch (RejectedExecutionException e) {
          return false; // closed meanwhile
        }
      }
      renewal = onDemand;
    }
    awaitEnd(renewal, retryEvery());
    return published != before;
  }

  /** Parks until the task ended or the time passed; an interrupt is kept, not obeyed. */
  private static void awaitEnd(Future<?> task, long maxMillis) {
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxMillis);
    boolean interrupted = false;
    try {
      for (; ; ) {
        try {
          task.get(end - System.nanoTime(), TimeUnit.NANOSECONDS);
          return;
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException | CancellationException | TimeoutException e) {
          return; // the renewal counted and logged its own failure
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private synchronized void renew() {
    if (closed) {
      return;
    }
    long sentNanos = time.nanoTime();
    long sent = time.millis();
    long mayIssue = sent + options.ttl().toMillis() - margin.toMillis();
    try {
      Lease l =
          coordinator.renew(
              lease,
              new LeaseTerms(options.ttl(), sent, Math.max(mayIssue, listener.lastIssuedMillis())));
      long received = time.millis();
      String skew = skewProblem(l, sent, received);
      if (skew != null) {
        failures.incrementAndGet();
        if (l.coordinatorNowMillis() < sent && listener.rejoinWallClock(time)) {
          // cut at a reading from after the rejoin, and renewed at once on the wall clock
          fence(time.millis(), skew + "; the time source rejoined the wall clock");
          schedule(1);
        } else {
          fence(sent, skew);
          schedule(retryEvery());
        }
        return;
      }
      lease = l;
      long deadline = deadline(l, sent, mayIssue);
      publish(
          grant.renewed(
              Math.max(deadline, grant.validUntilMillis()),
              realDeadline(sentNanos, sent, deadline)));
      renewals.incrementAndGet();
      detail = "held";
      lost = false;
      schedule(renewEvery());
    } catch (LeaseTakenException e) {
      failures.incrementAndGet();
      fence(sent, e.getMessage());
      if (!closed) { // a renewal that ended after close() released the lease: nothing to take
        reacquire();
      }
    } catch (RuntimeException e) {
      failures.incrementAndGet();
      detail = "renewal failed: " + e.getMessage();
      LOG.log(Level.WARNING, "snowid lease renewal failed; retrying: " + e.getMessage());
      schedule(retryEvery());
    }
  }

  private void reacquire() {
    try {
      acquire();
      if (closed) { // close() may have released the lease before this one: release it too
        coordinator.release(lease, listener.lastIssuedMillis());
        return;
      }
      publish(grant);
      schedule(renewEvery());
    } catch (RuntimeException e) {
      detail = "lease lost and not acquired again: " + e.getMessage();
      LOG.log(Level.WARNING, "snowid " + detail);
      schedule(this::retryAcquire, retryEvery());
    }
  }

  private synchronized void retryAcquire() {
    if (!closed) {
      reacquire();
    }
  }

  private long retryEvery() {
    return Math.max(1, Math.min(1000, options.ttl().toMillis() / 10));
  }

  private void fence(long at, String why) {
    detail = why;
    lost = true;
    NodeGrant g = grant;
    if (g.validUntilMillis() > at || g.validUntilNanos().isPresent()) {
      publish(g.renewed(Math.min(g.validUntilMillis(), at), time.nanoTime()));
    }
    LOG.log(Level.WARNING, "snowid fenced node " + g.values() + ": " + why);
  }

  /** Hands a grant to the generator, unless closed: a late renewal cannot unfence a release. */
  private void publish(NodeGrant g) {
    synchronized (publishLock) {
      if (!closed) {
        grant = g;
        published++;
        listener.onGrant(g);
      }
    }
  }

  @Override
  public NodeStatus status() {
    NodeGrant g = grant;
    long now = time.millis();
    boolean held = !closed && now < g.validUntilMillis();
    String why = startReason;
    boolean waiting = held && why != null && now <= g.startAfterMillis();
    return new NodeStatus(
        held,
        g.source(),
        held ? g.values() : Map.of(),
        Instant.ofEpochMilli(g.validUntilMillis()),
        closed ? closedDetail() : waiting ? why : held ? detail : "not renewed in time: " + detail,
        renewals.get(),
        failures.get(),
        waiting ? Instant.ofEpochMilli(g.startAfterMillis()) : null);
  }

  /** The detail once closed: released, or why not (the lease then ends at its expiry). */
  private String closedDetail() {
    String failure = releaseFailure;
    return failure == null
        ? "released"
        : "not released (" + failure + "): the lease ends by itself at its expiry";
  }

  @Override
  public void close() {
    // Not under the renewal monitor: a renewal stuck on the network must not hold up a release.
    synchronized (publishLock) {
      if (closed) {
        return;
      }
      closed = true;
      grant = grant.renewed(Long.MIN_VALUE + 1);
      listener.onGrant(grant);
    }
    // Not shutdownNow(): its interrupt would reach a renewal in flight, and an interrupted
    // FileChannel closes itself, dropping the process's lock on a file: lease before the release
    // below (LeaseCloseRegressionTest). A renewal in flight ends by itself, within its bound.
    scheduler.shutdown();
    synchronized (scheduleLock) {
      for (Future<?> f : new Future<?>[] {next, onDemand}) {
        if (f != null) {
          f.cancel(false); // a generator waiting for a requested renewal stops waiting
        }
      }
    }
    try {
      coordinator.release(lease, listener.lastIssuedMillis());
    } catch (RuntimeException e) {
      releaseFailure = e.getMessage();
      LOG.log(Level.WARNING, "snowid lease release failed: " + e.getMessage());
    } finally {
      if (ownsCoordinator) {
        coordinator.close();
      }
    }
  }
}
