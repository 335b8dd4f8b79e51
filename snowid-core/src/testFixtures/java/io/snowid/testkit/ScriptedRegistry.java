package io.snowid.testkit;

import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseInfo;
import io.snowid.lease.LeaseListing;
import io.snowid.lease.LeaseTakenException;
import io.snowid.lease.LeaseTerms;
import io.snowid.node.NodeIdUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * A network registry as the lease model (model/lease.pml) has it, on the real time of a {@link
 * SimulatedTime}: its own clock judges expiry, each id keeps a high-water mark (raised to what a
 * grant or renewal may issue before it counts, set to what a release issued), and a registry that
 * lost its state records {@code lostUntil} for the namespace at the next acquisition, as Redis's
 * {@code acquire.lua} and the SQL coordinator do. A test scripts its faults: the state lost, or the
 * next reply late by a given time.
 *
 * <p>It keeps one namespace and ignores the request's: processes simulated in one JVM lease under
 * namespaces of their own, so that the JVM's guard against two generators on one node value does
 * not stand in for the registry's mechanisms a replay is about.
 */
public final class ScriptedRegistry implements LeaseCoordinator {
  private final SimulatedTime time;
  private final Map<Long, Entry> ids = new TreeMap<>();
  private long lostUntil = Long.MIN_VALUE;
  private boolean stateLost;
  private Duration nextReplyLate = Duration.ZERO;

  private static final class Entry {
    String token;
    String instance = "";
    long expiresAt;
    long mark = Long.MIN_VALUE;
  }

  public ScriptedRegistry(SimulatedTime time) {
    this.time = time;
  }

  /** The registry restarts without its state (Redis without persistence, a truncated table). */
  public synchronized ScriptedRegistry loseState() {
    ids.clear();
    lostUntil = Long.MIN_VALUE;
    stateLost = true;
    return this;
  }

  /** The next acquisition or renewal acts in the registry, and its reply comes {@code d} later. */
  public synchronized ScriptedRegistry replyLate(Duration d) {
    nextReplyLate = d;
    return this;
  }

  @Override
  public synchronized Lease acquire(AcquireRequest request) {
    long now = time.realMillis();
    String reason = "";
    if (stateLost) { // the first acquisition after the loss finds no state: it records one
      lostUntil = request.limits().lostUntilMillis(now);
      stateLost = false;
    }
    Long chosen = null;
    for (long id = request.first(); id >= 0 && chosen == null; id = request.next(id)) {
      Entry e = ids.get(id);
      if (e == null || e.token == null || e.expiresAt <= now) {
        chosen = id;
      }
    }
    if (chosen == null) {
      throw new NodeIdUnavailableException("scripted registry: every allowed id is held");
    }
    Entry e = ids.computeIfAbsent(chosen, id -> new Entry());
    long start = Math.max(e.mark, lostUntil);
    if (lostUntil > e.mark) {
      reason = "the registry lost its state";
    }
    e.token = UUID.randomUUID().toString();
    e.instance = request.instance();
    e.expiresAt = now + request.terms().ttl().toMillis();
    e.mark = Math.max(start, request.terms().mayIssueUntilMillis());
    Lease granted =
        new Lease(
            request.namespace(),
            chosen,
            request.instance(),
            e.token,
            now,
            e.expiresAt,
            start,
            reason);
    reply();
    return granted;
  }

  /** Renews while the token is the id's, expired or not: an expired lease nobody took renews. */
  @Override
  public synchronized Lease renew(Lease lease, LeaseTerms terms) {
    long now = time.realMillis();
    Entry e = ids.get(lease.nodeId());
    if (e == null || !lease.token().equals(e.token)) {
      throw new LeaseTakenException(lease.namespace(), lease.nodeId(), "not this holder's");
    }
    e.expiresAt = now + terms.ttl().toMillis();
    e.mark = Math.max(e.mark, terms.mayIssueUntilMillis());
    Lease renewed =
        new Lease(
            lease.namespace(),
            lease.nodeId(),
            lease.instance(),
            lease.token(),
            now,
            e.expiresAt,
            lease.highWaterMillis());
    reply();
    return renewed;
  }

  /** The scripted fault of the reply, if any: time passes before it arrives. */
  private void reply() {
    Duration late = nextReplyLate;
    nextReplyLate = Duration.ZERO;
    time.advance(late);
  }

  @Override
  public synchronized void release(Lease lease, long issuedUpToMillis) {
    Entry e = ids.get(lease.nodeId());
    if (e != null && lease.token().equals(e.token)) {
      e.mark =
          Math.max(issuedUpToMillis, lease.highWaterMillis()); // release.lua: max(issued, base)
      e.token = null;
    }
  }

  @Override
  public synchronized LeaseListing list(String namespace) {
    long now = time.realMillis();
    List<LeaseInfo> out = new ArrayList<>();
    ids.forEach(
        (id, e) ->
            out.add(
                new LeaseInfo(
                    namespace,
                    id,
                    e.instance,
                    "",
                    e.token == null
                        ? LeaseInfo.State.RELEASED
                        : e.expiresAt <= now ? LeaseInfo.State.EXPIRED : LeaseInfo.State.HELD,
                    e.token == null ? Long.MIN_VALUE : e.expiresAt,
                    e.mark)));
    return new LeaseListing(now, out);
  }

  @Override
  public synchronized void releaseAbandoned(String namespace, long nodeId) {
    Entry e = ids.get(nodeId);
    if (e != null && e.token != null && e.expiresAt > time.realMillis()) {
      throw new LeaseTakenException(namespace, nodeId, "held");
    }
    if (e != null) {
      e.token = null;
    }
  }

  @Override
  public boolean hasOwnClock() {
    return true;
  }

  @Override
  public String describe() {
    return "scripted";
  }

  @Override
  public void close() {}
}
