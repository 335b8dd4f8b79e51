package io.snowid.testkit;

import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseInfo;
import io.snowid.lease.LeaseListing;
import io.snowid.lease.LeaseTakenException;
import io.snowid.lease.LeaseTerms;
import io.snowid.lease.LeaseTermsException;
import io.snowid.node.NodeIdUnavailableException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.LongSupplier;

/**
 * A coordinator on a {@link MemoryRegistry}: the registry's clock judges expiry, as a server's
 * would, and each id keeps the maximum high-water mark any holder reported.
 */
final class MemoryLeaseCoordinator implements LeaseCoordinator {
  private final MemoryRegistry registry;
  private final LongSupplier clock;
  private final Set<String> mine = new HashSet<>();
  private boolean crashed;

  MemoryLeaseCoordinator(MemoryRegistry registry, LongSupplier clock) {
    this.registry = registry;
    this.clock = clock;
  }

  @Override
  public Lease acquire(AcquireRequest request) {
    LeaseTerms terms = request.terms();
    synchronized (registry) {
      long now = clock.getAsLong();
      Map<Long, MemoryRegistry.Entry> ids = registry.namespace(request.namespace());
      long live = ids.values().stream().filter(e -> e.token != null && e.expiresAt > now).count();
      for (MemoryRegistry.Entry e : ids.values()) {
        if (e.token != null && e.expiresAt > now && !e.limits.equals(request.limits())) {
          throw new LeaseTermsException(
              request.namespace(), "memory:" + registry.name(), e.limits, live, request.limits());
        }
      }
      Long chosen = null;
      for (long id = request.first(); id >= 0; id = request.next(id)) {
        MemoryRegistry.Entry e = ids.get(id);
        boolean free = e == null || e.token == null || e.expiresAt <= now;
        if (free && (chosen == null || (e != null && request.instance().equals(e.lastInstance)))) {
          chosen = id;
          if (e != null && request.instance().equals(e.lastInstance)) {
            break;
          }
        }
      }
      if (chosen == null) {
        throw new NodeIdUnavailableException(
            "all "
                + request.count()
                + " node ids of namespace "
                + request.namespace()
                + " in memory:"
                + registry.name()
                + " are held");
      }
      MemoryRegistry.Entry e = ids.computeIfAbsent(chosen, id -> new MemoryRegistry.Entry());
      long previous = e.highWater;
      e.token = UUID.randomUUID().toString();
      e.instance = request.instance();
      e.lastInstance = request.instance();
      e.limits = request.limits();
      e.expiresAt = now + terms.ttl().toMillis();
      e.highWater = Math.max(e.highWater, terms.mayIssueUntilMillis());
      mine.add(e.token);
      return new Lease(
          request.namespace(), chosen, request.instance(), e.token, now, e.expiresAt, previous);
    }
  }

  @Override
  public Lease renew(Lease lease, LeaseTerms terms) {
    synchronized (registry) {
      long now = clock.getAsLong();
      MemoryRegistry.Entry e = registry.namespace(lease.namespace()).get(lease.nodeId());
      if (crashed || e == null || !lease.token().equals(e.token) || e.expiresAt <= now) {
        throw new LeaseTakenException(lease.namespace(), lease.nodeId(), "expired or taken");
      }
      e.expiresAt = now + terms.ttl().toMillis();
      e.highWater = Math.max(e.highWater, terms.mayIssueUntilMillis());
      return new Lease(
          lease.namespace(),
          lease.nodeId(),
          lease.instance(),
          lease.token(),
          now,
          e.expiresAt,
          lease.highWaterMillis());
    }
  }

  @Override
  public void release(Lease lease, long issuedUpToMillis) {
    synchronized (registry) {
      MemoryRegistry.Entry e = registry.namespace(lease.namespace()).get(lease.nodeId());
      if (crashed || e == null || !lease.token().equals(e.token)) {
        return;
      }
      // A released holder knows what it issued: that replaces its own promise, never an earlier
      // holder's mark (kept as the high-water mark when this holder acquired).
      e.highWater = Math.max(issuedUpToMillis, lease.highWaterMillis());
      e.token = null;
      mine.remove(lease.token());
    }
  }

  @Override
  public List<String> namespaces() {
    synchronized (registry) {
      return registry.names();
    }
  }

  @Override
  public LeaseListing list(String namespace) {
    synchronized (registry) {
      long now = clock.getAsLong();
      List<LeaseInfo> out = new ArrayList<>();
      new TreeMap<>(registry.namespace(namespace))
          .forEach(
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
                          e.highWater)));
      return new LeaseListing(now, out);
    }
  }

  @Override
  public void releaseAbandoned(String namespace, long nodeId) {
    synchronized (registry) {
      long now = clock.getAsLong();
      MemoryRegistry.Entry e = registry.namespace(namespace).get(nodeId);
      if (e == null || e.token == null) {
        return;
      }
      if (e.expiresAt > now) {
        throw new LeaseTakenException(
            namespace,
            nodeId,
            "held by instance "
                + e.instance
                + " until "
                + Instant.ofEpochMilli(e.expiresAt)
                + " (the registry's clock)");
      }
      e.token = null; // released; the high-water mark stays for the next holder
    }
  }

  /** Stops answering without releasing, as a process killed by SIGKILL would. */
  void crash() {
    synchronized (registry) {
      crashed = true;
    }
  }

  @Override
  public String describe() {
    return "memory:" + registry.name();
  }

  @Override
  public void close() {
    synchronized (registry) {
      mine.clear();
    }
  }
}
