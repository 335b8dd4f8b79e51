package io.snowid.etcd;

import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.lease.LeaseGrantResponse;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.grpc.ClientInterceptor;
import io.snowid.InvalidSettingException;
import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseInfo;
import io.snowid.lease.LeaseLimits;
import io.snowid.lease.LeaseListing;
import io.snowid.lease.LeaseTakenException;
import io.snowid.lease.LeaseTerms;
import io.snowid.lease.LeaseTermsException;
import io.snowid.lease.NamespaceState;
import io.snowid.lease.RegistryUnavailableException;
import io.snowid.node.NodeIdUnavailableException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * Leases node ids on etcd: the id's key attached to an etcd lease, taken by one transaction that
 * also raises the id's persistent high-water mark (judged on the namespace's view and sent with a
 * spare etcd lease when both are ready: one round trip); renewed by one keep-alive and one
 * transaction sent together. The rules are in docs/design.md, section "The {@code etcd://}
 * backend".
 */
final class EtcdLeaseCoordinator implements LeaseCoordinator {
  private static final System.Logger LOG = System.getLogger("io.snowid.etcd");
  private static final long MIN_BOUND_MILLIS = 100;

  /** How long an operator's call may take: no lease bounds it. */
  private static final long OPERATOR_BOUND_MILLIS = 5_000;

  /** Transactions an acquisition tries when other holders change what it read. */
  private static final int ATTEMPTS = 50;

  /**
   * How long an acquisition waits for its namespace's view to deliver this coordinator's writes.
   */
  private static final long VIEW_WAIT_MILLIS = 50;

  private final EtcdSettings settings;
  private final EtcdCalls etcd;
  private final EtcdViews views;
  private final EtcdSpares spares;

  private EtcdLeaseCoordinator(EtcdSettings settings, EtcdCalls etcd) {
    this.settings = settings;
    this.etcd = etcd;
    this.views = new EtcdViews(etcd);
    this.spares = new EtcdSpares(etcd);
  }

  /**
   * Connects to the etcd of a URI (without snowid's lease options) and reads once, so that an
   * unreachable or refusing etcd is found here.
   *
   * @throws InvalidSettingException if the URI is malformed
   * @throws NodeIdUnavailableException if etcd cannot be reached ({@link
   *     RegistryUnavailableException} if it may answer later)
   */
  static EtcdLeaseCoordinator open(String uri) {
    return open(uri, List.of());
  }

  /** {@link #open(String)}, with interceptors on every call to etcd (for tests). */
  static EtcdLeaseCoordinator open(String uri, List<ClientInterceptor> interceptors) {
    EtcdSettings settings = EtcdSettings.parse(uri);
    resolve(settings);
    EtcdCalls etcd;
    try {
      etcd = new EtcdCalls(settings, interceptors);
    } catch (RuntimeException e) {
      throw new NodeIdUnavailableException(
          "etcd at " + settings.describe() + " cannot be used: " + settings.scrub(e.getMessage()));
    }
    try {
      etcd.txn(
          "first read",
          OPERATOR_BOUND_MILLIS,
          List.of(),
          List.of(Op.get(EtcdCalls.bytes(settings.prefix() + "/reg/cluster"), GetOption.DEFAULT)),
          List.of());
    } catch (RuntimeException e) {
      etcd.close();
      throw e;
    }
    return new EtcdLeaseCoordinator(settings, etcd);
  }

  /**
   * Fails at once, not as unavailable, when no member's host name resolves: waiting won't fix it.
   */
  private static void resolve(EtcdSettings settings) {
    java.net.UnknownHostException last = null;
    for (String endpoint : settings.endpoints()) {
      String host = java.net.URI.create(endpoint).getHost();
      try {
        java.net.InetAddress.getAllByName(host);
        return;
      } catch (java.net.UnknownHostException e) {
        last = e;
      }
    }
    throw new NodeIdUnavailableException(
        "etcd at "
            + settings.describe()
            + " cannot be reached: unknown host ("
            + settings.scrub(String.valueOf(last == null ? null : last.getMessage()))
            + ")");
  }

  private EtcdKeys keys(String namespace) {
    return new EtcdKeys(settings.prefix(), namespace);
  }

  /**
   * The etcd lease time for a snowid ttl: whole seconds, rounded up, so that etcd never ends a
   * lease before the holder's deadline (docs/design.md, "The etcd:// backend", ttl).
   */
  static long etcdTtlSeconds(Duration ttl) {
    return Math.max(1, (ttl.toMillis() + 999) / 1000);
  }

  @Override
  public Lease acquire(AcquireRequest request) {
    views.sweep();
    LeaseTerms terms = request.terms();
    long ttl = terms.ttl().toMillis();
    long bound = Math.max(MIN_BOUND_MILLIS, ttl / 2);
    EtcdHistory.Reading start = EtcdHistory.Reading.now(terms.localNowMillis());
    long deadline = start.nanos() + bound * 1_000_000;
    long asked = etcdTtlSeconds(terms.ttl());
    EtcdKeys keys = keys(request.namespace());
    long etcdLease = spares.take(asked, ttl);
    boolean spare = etcdLease != 0;
    CompletableFuture<LeaseGrantResponse> granting = spare ? null : etcd.grantAsync(asked);
    try {
      EtcdHistory.Loss wentBack = etcd.unrecordedLoss();
      EtcdAcquisition a = wentBack == null ? onView(request, keys, deadline) : null;
      boolean onView = a != null;
      if (!onView) {
        EtcdCalls.Answer answer =
            etcd.txn("acquisition's read", left(deadline), List.of(), keys.readAll(), List.of());
        views.seed(request.namespace(), keys, answer.txn());
        wentBack = etcd.unrecordedLoss();
        a = judge(request, keys, answer, wentBack, start);
      }
      if (!spare) {
        etcdLease = granted(granting, asked, terms, deadline);
      }
      String token = UUID.randomUUID().toString();
      for (int attempt = 1; ; attempt++) {
        if (a.outcome == EtcdAcquisition.Outcome.FULL) {
          throw full(request, a.live);
        }
        if (a.outcome == EtcdAcquisition.Outcome.TERMS) {
          throw new LeaseTermsException(
              request.namespace(), describe(), a.recorded, a.live, request.limits());
        }
        long expiresAt = terms.localNowMillis() + ttl;
        EtcdAcquisition.Txn txn =
            onView
                ? a.transactionOnView(etcdLease, token, expiresAt)
                : a.transaction(etcdLease, token, expiresAt);
        EtcdCalls.Answer answer;
        try {
          answer = etcd.txn("acquisition", left(deadline), txn.ifs(), txn.then(), keys.readAll());
        } catch (EtcdCalls.LeaseGone e) {
          if (!spare) {
            throw e;
          }
          // the spare was revoked behind this coordinator's back: nothing was written
          spare = false;
          etcdLease = 0;
          granting = etcd.grantAsync(asked);
          etcdLease = granted(granting, asked, terms, deadline);
          attempt--;
          continue;
        }
        if (answer.txn().isSucceeded() && answer.wentBack() == null) {
          if (wentBack != null) {
            etcd.lossRecorded(wentBack); // its lostAt was written with the id, or taken on
          }
          long revision = answer.txn().getHeader().getRevision();
          views.wrote(request.namespace(), revision);
          views.created(request.namespace());
          spares.replenish(asked);
          return new Lease(
              request.namespace(),
              a.id,
              request.instance(),
              EtcdToken.of(token, etcdLease, answer),
              terms.localNowMillis(),
              expiresAt,
              a.base,
              startReason(request, a.loss));
        }
        wentBack = etcd.unrecordedLoss();
        if (answer.txn().isSucceeded() || attempt >= ATTEMPTS) {
          throw new RegistryUnavailableException(
              "the acquisition on etcd at "
                  + describe()
                  + (answer.txn().isSucceeded()
                      ? " saw etcd go back: " + answer.wentBack().why()
                      : " found what it read changed by other holders " + attempt + " times"));
        }
        // what it judged changed (or the view was late): the Else branch read it again
        onView = false;
        views.seed(request.namespace(), keys, answer.txn());
        a = judge(request, keys, answer, wentBack, start);
      }
    } catch (RuntimeException e) {
      if (etcdLease != 0) {
        etcd.revokeQuietly(etcdLease); // deletes the key, if the last transaction took it late
      } else if (granting != null) {
        granting.thenAccept(g -> etcd.revokeQuietly(g.getID()));
      }
      throw e;
    }
  }

  /**
   * The judgement on the namespace's view, if it has one that is live and has this coordinator's
   * own writes, and the judgement may go to etcd as it is ({@link EtcdAcquisition#fitsView()});
   * else null: the acquisition reads.
   */
  private EtcdAcquisition onView(AcquireRequest request, EtcdKeys keys, long deadline) {
    EtcdRecords seen =
        views.records(request.namespace(), keys, Math.min(VIEW_WAIT_MILLIS, left(deadline) / 4));
    if (seen == null) {
      return null;
    }
    EtcdAcquisition a =
        EtcdAcquisition.judge(
            keys,
            seen,
            request,
            request.terms().localNowMillis(),
            etcd.clusterId(),
            null,
            Long.MAX_VALUE);
    return a.fitsView() ? a : null;
  }

  /**
   * Judges a read; {@code wentBack}, a rollback this client saw and nobody recorded yet, is dated
   * against {@code start}, the holder's clock when the call began.
   */
  private EtcdAcquisition judge(
      AcquireRequest request,
      EtcdKeys keys,
      EtcdCalls.Answer answer,
      EtcdHistory.Loss wentBack,
      EtcdHistory.Reading start) {
    EtcdRecords read = new EtcdRecords(keys, answer.txn().getGetResponses());
    long now = request.terms().localNowMillis();
    return EtcdAcquisition.judge(
        keys,
        read,
        request,
        now,
        etcd.clusterId(),
        wentBack == null ? null : wentBack.why(),
        wentBack == null ? Long.MAX_VALUE : wentBack.knownAt(start));
  }

  /** The etcd lease of a grant sent for this acquisition, once it is at least as long as asked. */
  private long granted(
      CompletableFuture<LeaseGrantResponse> granting, long asked, LeaseTerms terms, long deadline) {
    LeaseGrantResponse grant = etcd.await("lease grant", granting, left(deadline));
    if (grant.getTTL() < asked) {
      throw new NodeIdUnavailableException(
          "etcd at "
              + describe()
              + " granted a lease of "
              + grant.getTTL()
              + " s for the "
              + asked
              + " s asked (ttl "
              + LeaseLimits.text(terms.ttl())
              + "): it would end before the holder's deadline");
    }
    return grant.getID();
  }

  private static long left(long deadline) {
    return Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
  }

  private NodeIdUnavailableException full(AcquireRequest request, long live) {
    return new NodeIdUnavailableException(
        "all "
            + request.count()
            + " node ids of namespace "
            + request.namespace()
            + (request.mask() == 0
                ? ""
                : " whose fixed bits match (mask "
                    + request.mask()
                    + ", match "
                    + request.match()
                    + ", of "
                    + request.size()
                    + ")")
            + " on "
            + describe()
            + " are held ("
            + live
            + " live leases)");
  }

  private String startReason(AcquireRequest request, String loss) {
    return loss.isEmpty()
        ? ""
        : "namespace "
            + request.namespace()
            + " on "
            + describe()
            + ": "
            + loss
            + "; so that no holder it forgot may still issue, its ids start after maxTtl +"
            + " maxSkew + 1s ("
            + request.limits()
            + ")";
  }

  @Override
  public Lease renew(Lease lease, LeaseTerms terms) {
    views.sweep();
    long ttl = terms.ttl().toMillis();
    long bound = Math.max(MIN_BOUND_MILLIS, ttl / 3);
    EtcdHistory.Reading start = EtcdHistory.Reading.now(terms.localNowMillis());
    long deadline = start.nanos() + bound * 1_000_000;
    EtcdToken token = EtcdToken.parse(lease.token());
    EtcdKeys keys = keys(lease.namespace());
    long id = lease.nodeId();
    long now = terms.localNowMillis();
    long expiresAt = now + ttl;
    // the keep-alive and the transaction go together: one round trip
    CompletableFuture<LeaseKeepAliveResponse> keepAlive =
        etcd.keepAliveOnceAsync(token.etcdLease());
    String held = new EtcdRecords.Held(token.random(), lease.instance(), token.etcdLease()).value();
    long base = lease.highWaterMillis();
    long markRevision = token.markRevision();
    long highWater = Math.max(terms.mayIssueUntilMillis(), base);
    EtcdCalls.Answer answer;
    // at most twice: the second takes up an earlier renewal of this holder that etcd applied but
    // whose answer the holder never used (late, or dropped by the holder's own checks)
    for (int attempt = 0; ; attempt++) {
      EtcdRecords.Mark mark =
          new EtcdRecords.Mark(lease.instance(), highWater, base, expiresAt, false, 0);
      List<Op> then = new ArrayList<>();
      then.add(EtcdAcquisition.put(keys.mark(id), mark.value()));
      then.addAll(EtcdAcquisition.wrote(keys, now));
      try {
        answer =
            etcd.txn(
                "renewal",
                left(deadline),
                List.of(
                    new Cmp(keys.held(id), Cmp.Op.EQUAL, CmpTarget.value(EtcdCalls.bytes(held))),
                    new Cmp(keys.mark(id), Cmp.Op.EQUAL, CmpTarget.modRevision(markRevision))),
                then,
                List.of(
                    Op.get(keys.held(id), GetOption.DEFAULT),
                    Op.get(keys.mark(id), GetOption.DEFAULT)));
      } catch (RuntimeException e) {
        keepAlive.cancel(true);
        throw e;
      }
      if (answer.wentBack() != null) {
        throw rolledBack(lease, keys, now, answer.wentBack().why(), answer.wentBack(), start);
      }
      TxnResponse r = answer.txn();
      if (r.isSucceeded()) {
        break;
      }
      EtcdRecords.Mark own = attempt == 0 ? ownLaterMark(r, held, lease, markRevision) : null;
      if (own == null) {
        throw notHeld(lease, keys, token, now, start, r);
      }
      markRevision = own.revision();
      highWater = Math.max(highWater, own.highWater());
    }
    LeaseKeepAliveResponse alive;
    try {
      alive = etcd.await("keep-alive", keepAlive, left(deadline));
    } catch (NodeIdUnavailableException e) {
      if (String.valueOf(e.getMessage()).contains("not found")) {
        throw new LeaseTakenException(
            lease.namespace(), id, "its etcd lease on " + describe() + " expired");
      }
      throw e;
    }
    if (alive.getTTL() <= 0) {
      throw new LeaseTakenException(
          lease.namespace(), id, "its etcd lease on " + describe() + " expired");
    }
    views.wrote(lease.namespace(), answer.txn().getHeader().getRevision());
    return new Lease(
        lease.namespace(),
        id,
        lease.instance(),
        EtcdToken.of(token.random(), token.etcdLease(), answer),
        now,
        expiresAt,
        lease.highWaterMillis());
  }

  /**
   * The id's mark when the renewal's transaction failed only because this holder's own earlier
   * renewal moved it: the held key is still this holder's (same token, instance and etcd lease),
   * and the mark, written later than the lease knows, names this instance. Nobody else writes a
   * mark while the held key stays (a newcomer needs it gone). Else null.
   */
  private static EtcdRecords.Mark ownLaterMark(
      TxnResponse r, String held, Lease lease, long markRevision) {
    var heldKvs = r.getGetResponses().get(0).getKvs();
    var markKvs = r.getGetResponses().get(1).getKvs();
    if (heldKvs.isEmpty()
        || markKvs.isEmpty()
        || !EtcdCalls.text(heldKvs.get(0).getValue()).equals(held)
        || markKvs.get(0).getModRevision() <= markRevision) {
      return null;
    }
    EtcdRecords.Mark mark =
        EtcdRecords.Mark.parse(
            EtcdCalls.text(markKvs.get(0).getValue()), markKvs.get(0).getModRevision());
    return mark.instance().equals(lease.instance()) && !mark.released() ? mark : null;
  }

  /** Why a renewal's transaction found the id not this holder's: read in its Else branch. */
  private RuntimeException notHeld(
      Lease lease,
      EtcdKeys keys,
      EtcdToken token,
      long now,
      EtcdHistory.Reading start,
      TxnResponse r) {
    var heldKvs = r.getGetResponses().get(0).getKvs();
    var markKvs = r.getGetResponses().get(1).getKvs();
    boolean unexpired = now < lease.expiresAtMillis();
    if (!markKvs.isEmpty() && markKvs.get(0).getModRevision() < token.markRevision()) {
      String why =
          "its record went back from revision "
              + token.markRevision()
              + " to "
              + markKvs.get(0).getModRevision();
      return rolledBack(
          lease, keys, now, why, token.writeGone(why, r.getHeader().getClusterId()), start);
    }
    EtcdRecords.Mark mark =
        markKvs.isEmpty()
            ? null
            : EtcdRecords.Mark.parse(
                EtcdCalls.text(markKvs.get(0).getValue()), markKvs.get(0).getModRevision());
    if (heldKvs.isEmpty() && mark != null && mark.released()) {
      return new LeaseTakenException(lease.namespace(), lease.nodeId(), "released");
    }
    if (heldKvs.isEmpty() && !unexpired) {
      return new LeaseTakenException(
          lease.namespace(), lease.nodeId(), "its etcd lease on " + describe() + " expired");
    }
    if (!heldKvs.isEmpty() && !unexpired) {
      return new LeaseTakenException(
          lease.namespace(), lease.nodeId(), "expired and taken by another holder");
    }
    // gone or another holder's before its expiry: nobody may do that; etcd lost writes
    return rolledBack(
        lease,
        keys,
        now,
        heldKvs.isEmpty()
            ? "its record is gone before its expiry"
            : "it is another holder's before its expiry",
        null,
        start);
  }

  /**
   * Records a loss found by a renewal (newcomers of every namespace start after lostUntil) and
   * returns the fence for the holder. A rollback that {@code evidence}, one this client saw, dates
   * before a {@code lostAt} recorded since is taken on instead ({@link
   * EtcdAcquisition#recordedAfter}); without evidence the loss is recorded at {@code now}.
   */
  private LeaseTakenException rolledBack(
      Lease lease,
      EtcdKeys keys,
      long now,
      String why,
      EtcdHistory.Loss evidence,
      EtcdHistory.Reading start) {
    LeaseLimits limits = LeaseLimits.DEFAULT;
    long lostUntil = now;
    try {
      EtcdCalls.Answer read =
          etcd.txn(
              "loss record's read", OPERATOR_BOUND_MILLIS, List.of(), keys.readAll(), List.of());
      if (read.wentBack() != null) {
        evidence = null; // another rollback since: recorded now
      }
      EtcdRecords records = new EtcdRecords(keys, read.txn().getGetResponses());
      String terms = records.namespace("terms").value();
      if (terms != null) {
        String[] f = terms.split(" ");
        limits =
            new LeaseLimits(
                Duration.ofMillis(EtcdRecords.num(f[0])), Duration.ofMillis(EtcdRecords.num(f[1])));
      }
      long skew = limits.maxSkew().toMillis();
      long lostAt = records.registry("lostAt").number();
      long recorded = records.namespace("lostUntil").number();
      if (evidence != null
          && EtcdAcquisition.recordedAfter(lostAt, evidence.knownAt(start), skew)) {
        lostUntil = Math.max(limits.lostUntilMillis(lostAt), recorded);
        for (EtcdHistory.Loss seen : new EtcdHistory.Loss[] {evidence, etcd.unrecordedLoss()}) {
          if (seen != null && EtcdAcquisition.recordedAfter(lostAt, seen.knownAt(start), skew)) {
            etcd.lossRecorded(seen);
          }
        }
      } else {
        lostUntil = Math.max(limits.lostUntilMillis(now), recorded);
        etcd.txn(
            "loss record",
            OPERATOR_BOUND_MILLIS,
            List.of(),
            List.of(
                EtcdAcquisition.put(keys.ns("lostUntil"), Long.toString(lostUntil)),
                EtcdAcquisition.put(keys.registry("lostAt"), Long.toString(now)),
                EtcdAcquisition.put(keys.registry("cluster"), Long.toString(etcd.clusterId()))),
            List.of());
        EtcdHistory.Loss pending = etcd.unrecordedLoss();
        if (pending != null) {
          etcd.lossRecorded(pending);
        }
      }
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "etcd at {0} went back to an older state and the loss could not be recorded: {1}",
          describe(),
          e.getMessage());
    }
    return new LeaseTakenException(
        lease.namespace(),
        lease.nodeId(),
        why
            + " on "
            + describe()
            + ": etcd lost or rolled back writes; newcomers start after "
            + Instant.ofEpochMilli(lostUntil));
  }

  @Override
  public void release(Lease lease, long issuedUpToMillis) {
    views.sweep();
    long granted = lease.expiresAtMillis() - lease.coordinatorNowMillis();
    EtcdToken token = EtcdToken.parse(lease.token());
    EtcdKeys keys = keys(lease.namespace());
    long id = lease.nodeId();
    String held = new EtcdRecords.Held(token.random(), lease.instance(), token.etcdLease()).value();
    long hw = lease.highWaterMillis();
    if (issuedUpToMillis != Long.MIN_VALUE) {
      hw = Math.max(hw, issuedUpToMillis);
    }
    List<Op> then = new ArrayList<>();
    then.add(Op.delete(keys.held(id), DeleteOption.DEFAULT));
    then.add(
        EtcdAcquisition.put(
            keys.mark(id),
            new EtcdRecords.Mark(lease.instance(), hw, Long.MIN_VALUE, Long.MIN_VALUE, true, 0)
                .value()));
    then.addAll(EtcdAcquisition.wrote(keys, System.currentTimeMillis()));
    EtcdCalls.Answer done =
        etcd.txn(
            "release",
            Math.max(MIN_BOUND_MILLIS, granted / 3),
            List.of(new Cmp(keys.held(id), Cmp.Op.EQUAL, CmpTarget.value(EtcdCalls.bytes(held)))),
            then,
            List.of());
    if (done.txn().isSucceeded()) {
      views.wrote(lease.namespace(), done.txn().getHeader().getRevision());
    }
    etcd.revokeQuietly(token.etcdLease());
  }

  @Override
  public LeaseListing list(String namespace) {
    EtcdKeys keys = keys(namespace);
    long now = System.currentTimeMillis();
    EtcdCalls.Answer a =
        etcd.txn("listing", OPERATOR_BOUND_MILLIS, List.of(), keys.readAll(), List.of());
    EtcdRecords read = new EtcdRecords(keys, a.txn().getGetResponses());
    List<LeaseInfo> out = new ArrayList<>();
    for (var e : read.marks.entrySet()) {
      EtcdRecords.Mark m = e.getValue();
      EtcdRecords.Held h = read.held.get(e.getKey());
      LeaseInfo.State state =
          h != null
              ? LeaseInfo.State.HELD
              : m.released() ? LeaseInfo.State.RELEASED : LeaseInfo.State.EXPIRED;
      String instance = h != null ? h.instance() : m.instance();
      out.add(
          new LeaseInfo(
              namespace,
              e.getKey(),
              instance,
              "",
              state,
              m.released() ? Long.MIN_VALUE : m.expiresAt(),
              m.highWater()));
    }
    Optional<NamespaceState> state = Optional.empty();
    String terms = read.namespace("terms").value();
    if (terms != null && read.namespace("written").value() != null) {
      String[] f = terms.split(" ");
      state =
          Optional.of(
              new NamespaceState(
                  new LeaseLimits(
                      Duration.ofMillis(EtcdRecords.num(f[0])),
                      Duration.ofMillis(EtcdRecords.num(f[1]))),
                  read.namespace("written").number(),
                  read.namespace("lostUntil").number()));
    }
    return new LeaseListing(now, out, state);
  }

  @Override
  public void releaseAbandoned(String namespace, long nodeId) {
    EtcdKeys keys = keys(namespace);
    EtcdCalls.Answer a =
        etcd.txn("listing", OPERATOR_BOUND_MILLIS, List.of(), keys.readAll(), List.of());
    EtcdRecords read = new EtcdRecords(keys, a.txn().getGetResponses());
    EtcdRecords.Mark m = read.marks.get(nodeId);
    EtcdRecords.Held h = read.held.get(nodeId);
    if (h != null) {
      throw new LeaseTakenException(
          namespace,
          nodeId,
          "held by instance "
              + h.instance()
              + (m == null || m.expiresAt() == Long.MIN_VALUE
                  ? ""
                  : " until about " + Instant.ofEpochMilli(m.expiresAt()) + " by its clock")
              + ": its etcd lease on "
              + describe()
              + " is alive");
    }
    if (m == null || m.released()) {
      return;
    }
    EtcdCalls.Answer done =
        etcd.txn(
            "release of an abandoned id",
            OPERATOR_BOUND_MILLIS,
            List.of(
                new Cmp(keys.held(nodeId), Cmp.Op.EQUAL, CmpTarget.version(0)),
                new Cmp(keys.mark(nodeId), Cmp.Op.EQUAL, CmpTarget.modRevision(m.revision()))),
            List.of(
                EtcdAcquisition.put(
                    keys.mark(nodeId),
                    new EtcdRecords.Mark(
                            m.instance(), m.highWater(), Long.MIN_VALUE, Long.MIN_VALUE, true, 0)
                        .value())),
            List.of());
    if (!done.txn().isSucceeded()) {
      throw new LeaseTakenException(
          namespace, nodeId, "taken or changed by a holder while it was being released");
    }
    LOG.log(
        Level.INFO,
        "node id {0} of namespace {1} on {2} released by an operator: its etcd lease had ended;"
            + " its high-water mark is kept",
        Long.toString(nodeId),
        namespace,
        describe());
  }

  /** The namespaces of the prefix: one keys-only range over its namespace keys. */
  @Override
  public List<String> namespaces() {
    String root = EtcdKeys.namespacesRoot(settings.prefix());
    EtcdCalls.Answer a =
        etcd.txn(
            "listing of namespaces",
            OPERATOR_BOUND_MILLIS,
            List.of(),
            List.of(
                Op.get(
                    EtcdCalls.bytes(root),
                    GetOption.builder().isPrefix(true).withKeysOnly(true).build())),
            List.of());
    TreeSet<String> names = new TreeSet<>();
    for (var kv : a.txn().getGetResponses().get(0).getKvs()) {
      String rest = EtcdCalls.text(kv.getKey()).substring(root.length());
      int slash = rest.indexOf('/');
      if (slash > 0) {
        names.add(rest.substring(0, slash));
      }
    }
    return List.copyOf(names);
  }

  /** etcd's answers carry no clock: lease times are the holder's own (docs/design.md). */
  @Override
  public boolean hasOwnClock() {
    return false;
  }

  @Override
  public String describe() {
    return settings.describe();
  }

  /**
   * Whether an acquisition in the namespace with this ttl would now be one round trip: a spare etcd
   * lease granted that covers the ttl, and the namespace's view live with this coordinator's own
   * writes; for tests.
   */
  boolean oneRoundTripReady(String namespace, Duration ttl) {
    return spares.ready(etcdTtlSeconds(ttl), ttl.toMillis())
        && views.records(namespace, keys(namespace), 0) != null;
  }

  /** Requests sent to etcd so far; for measurements. */
  long calls() {
    return etcd.calls();
  }

  /**
   * Closes the views and revokes the spare etcd leases, then closes the client without releasing
   * anything: leases still held expire by themselves.
   */
  @Override
  public void close() {
    views.close();
    spares.close();
    etcd.close();
  }
}
