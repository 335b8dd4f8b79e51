package io.snowid.lease;

import io.snowid.InvalidSettingException;
import io.snowid.node.NodeIdUnavailableException;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Leases on one host through lease files: {@code DIR/<namespace>/<id>.lease}, each locked by its
 * holder and holding a {@link LeaseRecord} that names the holder and the id's high-water mark, and
 * a host-wide claim of each id ({@link HostClaims}). The lock alone is not enough (it belongs to
 * the file, not the path, and any close of the file in the holder's process drops it), so the
 * record names its holder and every renewal checks both; the rules, the shared directory of several
 * users and the host-wide claims are in docs/design.md, "The {@code file:} backend".
 *
 * <p>This class is the coordinator's face and its acquisition: which id to take of those the
 * request allows. The work is done by {@link LeaseProbe} (whether an id's file lets it be taken),
 * {@link LeaseStart} (after what ID time a newcomer may issue), {@link HeldLease} (renewal and
 * release), {@link FileLeaseListing} (operators), {@link NamespaceMarks} (the namespace's terms and
 * marks), {@link LeaseFiles} and {@link LockedFile} (the files themselves).
 *
 * <p>The coordinator has no clock of its own: it records the holder's.
 */
final class FileLeaseCoordinator implements LeaseCoordinator {
  private static final System.Logger LOG = System.getLogger("io.snowid.lease");

  private final Path dir;
  private final HostClaims claims;
  private final FileLeaseListing listing;
  private final Map<String, HeldLease> held = new ConcurrentHashMap<>();

  /**
   * @param dir the lease directory, opened ({@link LeaseDirectory#open})
   * @param claims the host-wide claims every lease also takes
   */
  FileLeaseCoordinator(Path dir, HostClaims claims) {
    this.dir = dir;
    this.claims = claims;
    this.listing = new FileLeaseListing(dir);
  }

  static FileLeaseCoordinator open(String base) {
    return open(base, HostClaims.configured());
  }

  /**
   * {@link #open(String)} with the host-wide claims {@code claims} (for a test, in a place of its
   * own).
   */
  static FileLeaseCoordinator open(String base, HostClaims claims) {
    if (base.indexOf('?') >= 0) {
      throw new InvalidSettingException(
          "node", base, "file:DIR with the options " + LeaseOptions.KEYS + " only");
    }
    String raw = base.substring("file:".length());
    if (raw.startsWith("//")) {
      raw = raw.substring(2);
    }
    if (raw.isBlank()) {
      throw new InvalidSettingException("node", base, "file:DIR with a directory");
    }
    return new FileLeaseCoordinator(LeaseDirectory.open(Paths.get(raw)), claims);
  }

  @Override
  public Lease acquire(AcquireRequest request) {
    long beganNanos = System.nanoTime();
    String namespace = request.namespace();
    Path nsDir = LeaseDirectory.namespace(dir, namespace);
    NamespaceView view = new NamespaceView();
    LeaseCandidate best = null;
    claims.prepare();
    try {
      long now = System.currentTimeMillis(); // the host's clock, as every record's writtenAt
      NamespaceMarks.Seen marks = NamespaceMarks.readAll(dir, namespace, now);
      if (marks.live() != null && !marks.live().limits().equals(request.limits())) {
        throw NamespaceMarks.refused(
            dir, namespace, marks.liveFile(), marks.live(), request.limits());
      }
      // Files, but none a holder wrote within its limits (idle, or copied back from a backup):
      // a holder may issue under a longer lease time than they say. Recorded, so that newcomers
      // until then wait too, whatever the files say after this write.
      view.marksLost = marks.live() == null && marks.any();
      NamespaceMarks.raise(
          dir,
          namespace,
          request.terms().ttl().toMillis(),
          Long.MIN_VALUE,
          request.limits(),
          view.marksLost ? request.limits().lostUntilMillis(now) : Long.MIN_VALUE,
          now);
      view.ttlMillis = Math.max(marks.ttlMillis(), request.terms().ttl().toMillis());
      TreeSet<Long> existing = LeaseFiles.existingIds(nsDir);
      existing.removeIf(id -> !request.allows(id));
      for (long id : existing) {
        LeaseCandidate c = claimed(LeaseProbe.probe(nsDir, id, request, view), namespace, view);
        if (c == null) {
          continue;
        }
        if (best == null || c.rank() < best.rank()) {
          LeaseCandidate.abandon(best);
          best = c;
        } else {
          LeaseCandidate.abandon(c);
        }
        if (best.rank() == 0) {
          break;
        }
      }
      for (long id = request.first();
          id >= 0 && (best == null || best.mustWait());
          id = request.next(id)) {
        if (existing.contains(id)) {
          continue;
        }
        if (best != null && best.id() < id) {
          break; // an existing id that needs the same wait, and is lower
        }
        HostClaim claim = claims.take(namespace, id);
        if (claim == null) {
          view.claimedElsewhere++;
          continue;
        }
        LeaseCandidate c;
        try {
          c = LeaseProbe.create(nsDir, id);
        } catch (IOException | RuntimeException e) {
          claim.release();
          throw e;
        }
        if (c == null) {
          claim.release();
        } else {
          LeaseCandidate.abandon(best);
          best = c.withClaim(claim);
        }
      }
      if (best == null) {
        throw exhausted(namespace, request.count(), view);
      }
      LeaseCandidate taken = best;
      best = null;
      return take(taken, request, view, beganNanos);
    } catch (IOException e) {
      throw new NodeIdUnavailableException("lease directory " + nsDir + " failed: " + e);
    } finally {
      LeaseCandidate.abandon(best);
    }
  }

  /**
   * A candidate with its id's host-wide claim; null (the candidate abandoned) if a process of
   * another lease directory of this host holds the claim.
   */
  private LeaseCandidate claimed(LeaseCandidate c, String namespace, NamespaceView view) {
    if (c == null) {
      return null;
    }
    HostClaim claim;
    try {
      claim = claims.take(namespace, c.id());
    } catch (RuntimeException e) {
      LeaseCandidate.abandon(c);
      throw e;
    }
    if (claim == null) {
      view.claimedElsewhere++;
      LeaseCandidate.abandon(c);
      return null;
    }
    return c.withClaim(claim);
  }

  /** No id was free: says which were held and which are other users' files nothing holds. */
  private NodeIdsExhaustedException exhausted(String namespace, long size, NamespaceView view) {
    String where = "in " + dir + claimedElsewhere(view);
    if (view.notUsable.isEmpty()) {
      return new NodeIdsExhaustedException(namespace, size, where);
    }
    return new NodeIdsExhaustedException(
        namespace,
        size,
        where
            + " are taken: "
            + view.held
            + " held by running processes, "
            + view.notUsable.size()
            + " lease files of other users that no process holds but this user (uid "
            + LeaseDirectory.CurrentUser.uid()
            + ") cannot take ("
            + String.join(", ", view.notUsable.subList(0, Math.min(3, view.notUsable.size())))
            + (view.notUsable.size() > 3 ? ", …" : "")
            + "); if no process of those users runs snowid, remove those files as root",
        true);
  }

  private String claimedElsewhere(NamespaceView view) {
    if (view.claimedElsewhere == 0) {
      return "";
    }
    return " ("
        + view.claimedElsewhere
        + " of them free here but held by processes of other lease directories of this host,"
        + " claimed host-wide in "
        + claims.place()
        + ": one lease directory per host)";
  }

  /** Takes the chosen candidate; on any failure it is abandoned (lock dropped, claim given up). */
  private Lease take(LeaseCandidate c, AcquireRequest request, NamespaceView view, long beganNanos)
      throws IOException {
    try {
      return takeOrThrow(c, request, view, beganNanos);
    } catch (IOException | RuntimeException e) {
      LeaseCandidate.abandon(c);
      throw e;
    }
  }

  private Lease takeOrThrow(
      LeaseCandidate c, AcquireRequest request, NamespaceView view, long beganNanos)
      throws IOException {
    LeaseTerms terms = request.terms();
    long now = terms.localNowMillis();
    LeaseStart.Start start = LeaseStart.startAfter(dir, c, request, view, now);
    long startAfter = start.afterMillis();
    // A start the holder would refuse, as fixed marks lie beyond startWait past its clock, writes
    // no record: the id's stays its last holder's, for the next taker to judge afresh, not this
    // one's start carried on as the id's mark. Not on one lease time from its own clock, nor on the
    // namespace's marks, which live holders move on: such a refusal would never end.
    // (docs/design.md, "The file: backend")
    long judgedAt = now + (System.nanoTime() - beganNanos) / 1_000_000;
    if (start.marksMillis() > LeaseStart.saturatedAdd(judgedAt, request.startWait().toMillis())) {
      throw new StartRefusedException(c.id(), start.marksMillis(), judgedAt);
    }
    String token = UUID.randomUUID().toString();
    LeaseRecord record =
        new LeaseRecord(
            LeaseRecord.VERSION,
            request.instance(),
            token,
            HolderProcess.host(),
            HolderProcess.bootId(),
            HolderProcess.pid(),
            HolderProcess.pidNamespace(),
            HolderProcess.startTicks(),
            terms.ttl().toMillis(),
            System.currentTimeMillis(),
            startAfter,
            Math.max(startAfter, terms.mayIssueUntilMillis()),
            terms.expiresAtMillis());
    NamespaceMarks.raise(
        dir,
        request.namespace(),
        record.ttlMillis(),
        record.highWater(),
        request.limits(),
        Long.MIN_VALUE,
        record.writtenAt());
    LeaseFiles.write(c.file().channel(), record);
    c.claim().record(record.highWater(), record.ttlMillis());
    ProcessFileClaims.liveToken(token, c.file().path().toString());
    HeldLease h = new HeldLease(token, c.file(), c.claim(), request.limits(), record);
    held.put(token, h);
    h.register();
    return new Lease(
        request.namespace(),
        c.id(),
        request.instance(),
        token,
        now,
        terms.expiresAtMillis(),
        startAfter,
        start.reason());
  }

  @Override
  public Lease renew(Lease lease, LeaseTerms terms) {
    HeldLease h = held.get(lease.token());
    if (h == null) {
      throw new LeaseTakenException(lease.namespace(), lease.nodeId(), "released");
    }
    synchronized (h) {
      try {
        String lost = h.renew(dir, lease, terms);
        if (lost != null) {
          LOG.log(
              Level.WARNING,
              "snowid lease of node id {0} lost: {1}",
              LeaseFiles.str(lease.nodeId()),
              lost);
          drop(h);
          throw new LeaseTakenException(lease.namespace(), lease.nodeId(), lost);
        }
      } catch (IOException e) {
        throw new NodeIdUnavailableException("cannot write " + h.path + ": " + e);
      }
      return new Lease(
          lease.namespace(),
          lease.nodeId(),
          lease.instance(),
          lease.token(),
          terms.localNowMillis(),
          terms.expiresAtMillis(),
          lease.highWaterMillis());
    }
  }

  private void drop(HeldLease h) {
    held.remove(h.token, h);
    h.letGo();
  }

  @Override
  public void release(Lease lease, long issuedUpToMillis) {
    HeldLease h = held.get(lease.token());
    if (h == null) {
      return;
    }
    synchronized (h) {
      try {
        h.writeReleased(lease, issuedUpToMillis);
      } catch (IOException e) {
        throw new NodeIdUnavailableException("cannot write " + h.path + ": " + e);
      } finally {
        drop(h);
      }
    }
  }

  /** The namespace folders of the lease directory, sorted; nothing is created. */
  @Override
  public List<String> namespaces() {
    return listing.namespaces();
  }

  @Override
  public LeaseListing list(String namespace) {
    return listing.list(namespace);
  }

  @Override
  public void releaseAbandoned(String namespace, long nodeId) {
    listing.releaseAbandoned(namespace, nodeId);
  }

  /** No: the records carry the holders' own clocks, so there is no skew to check. */
  @Override
  public boolean hasOwnClock() {
    return false;
  }

  @Override
  public String describe() {
    return "file:" + dir;
  }

  @Override
  public void close() {
    for (HeldLease h : List.copyOf(held.values())) {
      synchronized (h) {
        drop(h);
      }
    }
  }
}
