package io.snowid;

import io.snowid.lease.LeaseLostException;
import io.snowid.node.GrantListener;
import io.snowid.node.NodeGrant;
import io.snowid.node.NodeLease;
import io.snowid.node.NodeStatus;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * Binds a generator to its node values: static values once, or every grant of a {@link NodeLease}
 * (it is the generator's {@link GrantListener}). Publishes the {@link Binding} in force, fences on
 * a new acquisition, asks the lease for a renewal when a deadline passed, and tells the lease how
 * far the generator has issued.
 *
 * <p>Longer than ~500 lines because binding, fencing and the JVM-wide claim of the values change
 * one published {@link Binding} under one lock: split, each part would have to know the others'
 * invariants (docs/design.md, section 4).
 */
final class NodeBinding implements GrantListener, NodeClaims.Owner {
  /*
   * Under a lease nothing is issued past the grant's deadline. A run that reaches past a valid
   * deadline (a burst under a lead, a batch, a start pushed past it by a high-water mark) waits
   * for renewals one unit at a time. A deadline that passed while the lease may be healthy (the
   * clock stepped forward by more than the lease time left, a renewal ran late) makes the caller
   * ask the lease for a renewal at once and wait for it a bounded time, once per grant, rather
   * than fail until the next scheduled renewal.
   *
   * A new acquisition first publishes a fenced binding, then moves the generator's position past
   * everything issued and past the grant's high-water mark, then publishes the new values. A
   * caller that took a position under a binding checks after its compare-and-set that the binding
   * is still the one in force, and else skips that position: no ID carries new values with an old
   * position, and none is returned after a fence that the lease then reads past.
   *
   * Closing the generator publishes a binding fenced for that reason, with the time of the close,
   * before the lease is released, and no grant is bound after it: the release itself hands over a
   * grant whose deadline is long past (before any epoch), which says neither why nor since when.
   *
   * Real time. A grant's deadline is in the time source's milliseconds (limitTick), the times IDs
   * carry, so that the next holder, which starts after the confirmed high-water mark, never meets
   * them. For a source that never steps back and runs no faster than real time against the lease
   * (MonotonicTimeSource: it goes back only in rejoinWallClock, fenced, leaving no deadline counted
   * from before in force), that deadline also comes before the registry's expiry in real time. A
   * source that may step back (the wall clock, or any source of the application's) reaches it up to
   * the step later: the generator would go on issuing, under a lease the registry has expired. So
   * for such a source a binding also carries the grant's deadline in real time (the lease's
   * monotonic clock: when the confirmed request was sent, plus the lease time less the margin), and
   * nothing is reserved after it: checked on every call of the fast path (a check only where a unit
   * is entered would let a step back within a lead run on into later units, and the rest of the
   * unit last entered be issued after a step back with no call in between: docs/design.md, "Real
   * time"; LeaseRealTimeFenceRegressionTest), before every reservation of the slow path, and again
   * before a run that waited for its time is returned. The first call that finds it passed (and
   * gets no renewal at once) replaces the binding with one fenced for that reason. What remains is
   * a caller between its check and its CAS. Such a generator pays one nanoTime read per ID; the
   * monotonic source, and a source without a lease, pay one read of realTimeBound, which is false.
   */

  /**
   * The node values in force and the last tick they may be used for; replaced, never mutated.
   * Compared by identity: each grant bound, a renewal too, is a new binding.
   */
  static final class Binding {
    final NodeGrant grant;
    final long nodeBits;
    final long limitTick; // IDs carry ticks <= limitTick: min(layout's last, lease deadline)
    final long startAfterMillis; // IDs carry times after it: the node's high-water mark, or MIN
    final String fencedReason; // non-null: nothing may be issued under this binding
    final long fencedSinceMillis; // when it was fenced for that reason; MIN: when asked
    final boolean realTimeBound; // the source may step back and the grant has a real deadline
    final long realLimitNanos; // if realTimeBound: nothing is reserved once nanoTime reaches it

    Binding(
        NodeGrant grant,
        long nodeBits,
        long limitTick,
        long startAfterMillis,
        String fencedReason,
        boolean realTime) {
      this(grant, nodeBits, limitTick, startAfterMillis, fencedReason, Long.MIN_VALUE, realTime);
    }

    /**
     * @param realTime whether the time source may step back: then the grant's real-time deadline,
     *     if it has one, bounds the binding too
     */
    Binding(
        NodeGrant grant,
        long nodeBits,
        long limitTick,
        long startAfterMillis,
        String fencedReason,
        long fencedSinceMillis,
        boolean realTime) {
      this.grant = grant;
      this.nodeBits = nodeBits;
      this.limitTick = limitTick;
      this.startAfterMillis = startAfterMillis;
      this.fencedReason = fencedReason;
      this.fencedSinceMillis = fencedSinceMillis;
      this.realTimeBound = realTime && grant.validUntilNanos().isPresent();
      this.realLimitNanos = realTimeBound ? grant.validUntilNanos().getAsLong() : 0;
    }
  }

  private final Layout layout;
  private final Position position;
  private final TimeSource time;
  private final NodeSources.Resolved node;
  private final long startAfterMillis;
  private final LongConsumer passTick; // what a binding needs of its generator: its position
  private final LongSupplier lastReservedTick;
  private final boolean realTime; // the source may step back: bindings check real time too
  private final Object lock = new Object();

  /** The binding in force: the generator reads it once per attempt and again after its CAS. */
  volatile Binding current;

  /**
   * How many times the time source rejoined the wall clock: a run reserved before one and still
   * waiting for its time is given up (its time was read before the source went back).
   */
  final AtomicInteger rejoins = new AtomicInteger();

  private static final VarHandle CURRENT;

  static {
    try {
      CURRENT = MethodHandles.lookup().findVarHandle(NodeBinding.class, "current", Binding.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /**
   * The JVM-wide claim on the values bound (NodeClaims); given up when other values are bound, on
   * close, and by the generator's cleaner if it is dropped unclosed. Guarded by lock.
   */
  final ClaimBox claim = new ClaimBox();

  /** Why the first values could not be bound: another live generator of this JVM holds them. */
  private volatile NodeValuesInUseException refused;

  /** The last binding whose lease was asked for a renewal past its deadline and gave none. */
  private volatile Binding renewalMissed;

  private volatile boolean
      closed; // written under lock: the generator was closed, no grant is bound

  /**
   * The grant whose values another generator of this JVM took after this one's deadline passed
   * (NodeClaims): neither it nor a renewal of it is bound again. Written by {@link #valuesTaken}.
   */
  private volatile NodeGrant taken;

  private volatile String takenReason;

  /** What the owners whose lapsed values the last claim took issued last (MIN: none). */
  private long takenOverAfter = Long.MIN_VALUE; // guarded by lock

  /** A grant is being bound: the values just claimed count as held (NodeClaims). */
  private volatile boolean binding;

  /**
   * @param node the resolved node source: static values, or a lease
   * @param startAfterMillis the builder's high-water mark ({@link Long#MIN_VALUE}: none)
   * @param passTick moves the generator's position past every tick issued so far and past the one
   *     given (-1: none)
   * @param lastReservedTick the generator's latest tick issued or reserved, the peak before a
   *     clockback step included
   */
  NodeBinding(
      Layout layout,
      Position position,
      TimeSource time,
      NodeSources.Resolved node,
      long startAfterMillis,
      LongConsumer passTick,
      LongSupplier lastReservedTick) {
    this.layout = layout;
    this.position = position;
    this.time = time;
    this.node = node;
    this.startAfterMillis = startAfterMillis;
    this.passTick = passTick;
    this.lastReservedTick = lastReservedTick;
    this.realTime = !(time instanceof MonotonicTimeSource);
  }

  /**
   * Binds the static values, or attaches to the lease, which binds its current grant: once, when
   * the generator is ready to be moved.
   */
  void start() {
    if (time instanceof MonotonicTimeSource m) {
      claim.useSource(m.users()); // given back on close, or by the cleaner if never closed
    }
    try {
      if (node.lease() == null) {
        onGrant(NodeGrant.permanent(node.values(), node.source()));
      } else {
        node.lease().attach(this);
      }
    } catch (RuntimeException e) {
      claim.releaseSource();
      throw e;
    }
  }

  /**
   * Takes a new grant. A renewal only moves the deadline. A new acquisition fences, moves the
   * position past every tick issued so far and past the grant's high-water mark, then binds: so IDs
   * under new node values are greater than all before and after the previous holder's.
   */
  @Override
  public void onGrant(NodeGrant grant) {
    synchronized (lock) {
      binding = true;
      try {
        bind(grant);
      } finally {
        binding = false;
      }
    }
  }

  /** {@link #onGrant}, under the lock. */
  private void bind(NodeGrant grant) {
    {
      if (closed) {
        return; // the release's own grant, or a renewal that raced it: the close says it all
      }
      long bits = 0;
      String problem = null;
      for (Layout.Field f : layout.nodeFields()) {
        Long v = grant.values().get(f.name());
        if (v == null || v < 0 || v > f.max()) {
          problem = "grant " + grant.values() + " does not fit node field " + f;
          break;
        }
        bits |= v << f.shift();
      }
      Binding was = current;
      boolean renewal =
          was != null
              && was.grant.acquisition() == grant.acquisition()
              && was.grant.values().equals(grant.values());
      if (problem == null && isTaken(grant)) {
        problem = takenReason;
      }
      takenOverAfter = Long.MIN_VALUE;
      if (problem == null) {
        problem = claim(grant);
      }
      long startAfter =
          Math.max(Math.max(grant.startAfterMillis(), startAfterMillis), takenOverAfter);
      if (!renewal || takenOverAfter != Long.MIN_VALUE) {
        publish(
            new Binding(
                grant,
                bits,
                -1,
                startAfter,
                "binding new node values " + grant.values(),
                realTime));
        passTick.accept(startAfter == Long.MIN_VALUE ? -1 : position.tickAt(startAfter));
      }
      publish(
          new Binding(
              grant, bits, problem == null ? limitTick(grant) : -1, startAfter, problem, realTime));
    }
  }

  /**
   * Puts {@code next} in force, under the lock; a binding of a grant whose values were taken
   * ({@link #valuesTaken}, which takes no lock) goes in fenced.
   */
  private void publish(Binding next) {
    for (; ; ) {
      Binding b = current;
      Binding n =
          next.fencedReason == null && isTaken(next.grant)
              ? new Binding(
                  next.grant, next.nodeBits, -1, next.startAfterMillis, takenReason, realTime)
              : next;
      if (CURRENT.compareAndSet(this, b, n)) {
        return;
      }
    }
  }

  /**
   * Claims the grant's values for this generator in the JVM, giving up the values bound before;
   * returns the problem when another live generator holds them.
   */
  private String claim(NodeGrant grant) {
    String namespace = node.lease() == null ? null : node.lease().namespace();
    long packed = layout.packNode(grant.values());
    if (claim.holds(packed, namespace)) {
      return null;
    }
    String[] holder = new String[2];
    NodeClaims.Claim c =
        NodeClaims.claim(layout.idSpace(), packed, namespace, grant.source(), this, holder);
    if (c == null) {
      NodeValuesInUseException e =
          new NodeValuesInUseException(
              grant.values(), layout.idSpace(), namespace, holder[0], grant.source());
      if (refused == null && current == null) {
        refused = e;
      }
      claim.set(null, packed, namespace);
      return e.getMessage();
    }
    claim.set(c, packed, namespace);
    takenOverAfter = c.startAfterMillis();
    return null;
  }

  @Override
  public boolean holdsItsValues() {
    Binding b = current;
    if (b == null || binding) {
      return true; // being built, or binding a grant: it has just claimed the values
    }
    if (b.fencedReason != null) {
      return false;
    }
    long until = b.grant.validUntilMillis();
    return until == Long.MAX_VALUE || time.millis() < until;
  }

  /**
   * Another generator took the values this one claimed, once its deadline had passed: fences the
   * binding of those values for good, with the time of the takeover, and returns the last time it
   * issued, past which the new holder starts. Without it, a clock stepped back before the deadline
   * would let this generator issue beside the new holder. A new acquisition binds as usual (it
   * moves the position past the registry's high-water mark). Takes no lock: the new holder calls it
   * while it holds its own.
   */
  @Override
  public long valuesTaken(long packed, String source) {
    for (; ; ) {
      Binding b = current;
      if (closed || b == null || layout.packNode(b.grant.values()) != packed) {
        return lastIssuedMillis(); // it has bound other values since, or was closed
      }
      String reason =
          "node values "
              + b.grant.values()
              + " were taken by another generator of this JVM ("
              + source
              + ") after the lease from "
              + b.grant.source()
              + " passed its deadline; close this generator and build another";
      taken = b.grant; // before the fence: a publish that misses the fence sees it
      takenReason = reason;
      Binding fenced = fencedBinding(b, reason, time.millis());
      if (CURRENT.compareAndSet(this, b, fenced)) {
        return lastIssuedMillis(); // fenced: nothing is issued after it that this misses
      }
    }
  }

  private boolean isTaken(NodeGrant grant) {
    return taken != null
        && taken.acquisition() == grant.acquisition()
        && taken.values().equals(grant.values());
  }

  /** Why {@link #start()} bound nothing: the values are another live generator's; else null. */
  NodeValuesInUseException refused() {
    return refused;
  }

  /** The last tick wholly before the grant's deadline; no overflow for extreme deadlines. */
  private long limitTick(NodeGrant grant) {
    long deadline = grant.validUntilMillis();
    if (deadline == Long.MAX_VALUE) {
      return position.maxTick();
    }
    if (deadline <= position.millisAt(0)) {
      return -1;
    }
    return Math.min(position.maxTick(), position.tickAt(deadline - 1));
  }

  /**
   * Fences, then puts the time source back on the wall clock if it is the lease's, this generator's
   * alone, and ahead of the wall clock (docs/design.md section 4, "Rejoining the wall clock"). The
   * binding stays fenced until the lease binds its next grant, whose deadline counts from a reading
   * taken after this; a caller that passed its checks before may still reserve up to the old
   * deadline, which the generator then waits for.
   */
  @Override
  public boolean rejoinWallClock(TimeSource leaseTime) {
    if (leaseTime != time || !(time instanceof MonotonicTimeSource m)) {
      return false;
    }
    synchronized (lock) {
      Binding b = current;
      if (closed || b == null) {
        return false;
      }
      long since = time.millis();
      return m.rejoin(
          () -> {
            publish(
                fencedBinding(
                    b,
                    "its time source ran ahead of the registry's clock: it rejoins the wall clock",
                    since));
            rejoins.incrementAndGet();
          });
    }
  }

  /** {@code b} fenced for {@code reason} since {@code sinceMillis}: nothing is issued under it. */
  private Binding fencedBinding(Binding b, String reason, long sinceMillis) {
    return new Binding(b.grant, b.nodeBits, -1, b.startAfterMillis, reason, sinceMillis, realTime);
  }

  @Override
  public long lastIssuedMillis() {
    return position.millisAt(lastReservedTick.getAsLong());
  }

  /**
   * The deadline of {@code b} passed while its lease may be healthy (the clock stepped forward, a
   * renewal ran late): asks the lease for a renewal at once and waits, as long as the lease says,
   * for a new grant. Returns whether one was bound. Once per binding: later calls under a binding
   * whose renewal did not come fail at once, and the lease's own renewals take over.
   */
  boolean awaitRenewal(Binding b) {
    NodeLease lease = node.lease();
    if (lease == null || b.fencedReason != null || renewalMissed == b) {
      return false;
    }
    lease.requestRenewal();
    if (current != b) {
      return true;
    }
    renewalMissed = b;
    return false;
  }

  /**
   * Whether {@code b} is bounded in real time and its real-time deadline has passed, by the time
   * source's monotonic clock. False at once for a source that never steps back.
   */
  boolean pastRealDeadline(Binding b) {
    return b.realTimeBound && time.nanoTime() - b.realLimitNanos >= 0;
  }

  /**
   * The real-time deadline of {@code b} passed and no renewal came: replaces {@code b}, if still in
   * force, with a binding fenced for that reason (so that no caller issues under it on the fast
   * path either, whatever the clock reads), until the lease binds a new grant; returns why.
   */
  LeaseLostException fenceInRealTime(Binding b, long nowTicks) {
    long nowMillis = position.millisAt(nowTicks);
    long lateMillis = Math.max(0, (time.nanoTime() - b.realLimitNanos) / 1_000_000L);
    long since = nowMillis - lateMillis;
    String reason =
        "the lease from "
            + b.grant.source()
            + " was not renewed by its deadline in real time ("
            + Durations.format(Duration.ofMillis(lateMillis))
            + " ago by this process's monotonic clock; the registry may then give the node"
            + " values to another process)"
            + (nowMillis < b.grant.validUntilMillis()
                ? ", though this time source reads "
                    + Instant.ofEpochMilli(nowMillis)
                    + ", before the deadline in its own time "
                    + Instant.ofEpochMilli(b.grant.validUntilMillis())
                    + " (it stepped back)"
                : "");
    synchronized (lock) {
      CURRENT.compareAndSet(this, b, fencedBinding(b, reason, since));
    }
    return new LeaseLostException(b.grant.values(), Instant.ofEpochMilli(since), reason);
  }

  /** Why nothing can be issued under {@code b} at {@code nowTicks}. */
  LeaseLostException fenced(Binding b, long nowTicks) {
    NodeGrant grant = b.grant;
    long deadline = grant.validUntilMillis();
    long nowMillis = position.millisAt(nowTicks);
    if (b.fencedReason != null) {
      long since = b.fencedSinceMillis == Long.MIN_VALUE ? nowMillis : b.fencedSinceMillis;
      return new LeaseLostException(grant.values(), Instant.ofEpochMilli(since), b.fencedReason);
    }
    if (deadline <= position.millisAt(0)) { // before the epoch: revoked, as a release does
      return new LeaseLostException(
          grant.values(),
          Instant.ofEpochMilli(nowMillis),
          "the lease from " + grant.source() + " was released");
    }
    Instant since = Instant.ofEpochMilli(deadline == Long.MAX_VALUE ? nowMillis : deadline);
    String reason =
        grant.startAfterMillis() >= deadline
            ? "waiting for this clock to pass the node's high-water mark "
                + Instant.ofEpochMilli(grant.startAfterMillis())
            : "the lease from " + grant.source() + " was not renewed in time";
    return new LeaseLostException(grant.values(), since, reason);
  }

  /** Why nothing will be issued again: the close, since when; null while not closed. */
  LeaseLostException closedBecause() {
    Binding b = current;
    return closed && b != null ? fenced(b, position.tickAt(time.millis())) : null;
  }

  /** The node field values in force. */
  Map<String, Long> values() {
    return current.grant.values();
  }

  /**
   * Whether the generator can issue now, with which node values, from which source: the lease's
   * status, except that while the time source is not past the node's high-water mark the values are
   * held but nothing can be issued yet (a fresh {@code file:} id waits one ttl).
   */
  NodeStatus status() {
    NodeLease lease = node.lease();
    NodeStatus s =
        lease != null
            ? lease.status()
            : new NodeStatus(true, node.source(), values(), null, "static node values", 0, 0);
    Binding b = current;
    if (s.held() && b.fencedReason != null && b.fencedReason.equals(takenReason)) {
      return new NodeStatus(
          false,
          s.source(),
          s.values(),
          s.validUntil(),
          takenReason,
          s.renewals(),
          s.renewalFailures());
    }
    if (s.held() && pastRealDeadline(b)) {
      return new NodeStatus(
          false,
          s.source(),
          s.values(),
          s.validUntil(),
          "not renewed by the lease's deadline in real time (this time source stepped back)",
          s.renewals(),
          s.renewalFailures());
    }
    long startAfter = b.startAfterMillis;
    if (s.held()
        && startAfter != Long.MIN_VALUE
        && position.tickAt(time.millis()) <= position.tickAt(startAfter)) {
      return new NodeStatus(
          false,
          s.source(),
          s.values(),
          s.validUntil(),
          "the first ID waits until "
              + Instant.ofEpochMilli(startAfter)
              + (s.waitingUntil() != null ? ": " + s.detail() : " (the node's high-water mark)"),
          s.renewals(),
          s.renewalFailures(),
          Instant.ofEpochMilli(startAfter));
    }
    return s;
  }

  /**
   * Fences the generator for good with the reason and the time of the close, gives up its node
   * values in this JVM, and releases the lease if the generator opened it itself; idempotent.
   */
  void close() {
    synchronized (lock) {
      // a caller's lease that already ended (released by its owner) says why better than the close
      boolean endedBefore =
          !node.ownsLease()
              && (current == null
                  || current.fencedReason != null
                  || (node.lease() != null && !node.lease().status().held()));
      if (!closed && current != null && !endedBefore) {
        Binding b = current;
        publish(
            fencedBinding(
                b,
                node.ownsLease()
                    ? "the generator was closed and its lease from "
                        + b.grant.source()
                        + " released"
                    : "the generator was closed",
                time.millis()));
      }
      claim.releaseSource();
      closed = true;
      claim.set(null, 0, null);
    }
    if (node.ownsLease()) {
      node.lease().close();
    }
  }

  /** A generator's JVM-wide claim, apart from the generator so that its cleaner can release it. */
  static final class ClaimBox implements Runnable {
    private NodeClaims.Claim held; // guarded by this
    private long packed;
    private String namespace;
    private AtomicInteger sourceUsers; // of the default source this generator reads, until released

    synchronized void useSource(AtomicInteger users) {
      users.incrementAndGet();
      sourceUsers = users;
    }

    synchronized void releaseSource() {
      if (sourceUsers != null) {
        sourceUsers.decrementAndGet();
        sourceUsers = null;
      }
    }

    synchronized boolean holds(long packed, String namespace) {
      return NodeClaims.inForce(held)
          && this.packed == packed
          && java.util.Objects.equals(this.namespace, namespace);
    }

    /** Gives up the claim held, if any, and holds {@code c} (null: none). */
    synchronized void set(NodeClaims.Claim c, long packed, String namespace) {
      NodeClaims.release(held);
      held = c;
      this.packed = packed;
      this.namespace = namespace;
    }

    @Override
    public void run() {
      set(null, 0, null);
      releaseSource();
    }
  }
}
