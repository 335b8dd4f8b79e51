package io.snowid.etcd;

import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.PutOption;
import io.snowid.lease.AcquireRequest;
import io.snowid.lease.LeaseLimits;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One acquisition's judgement on what a read found: the id to take, what earlier holders may have
 * issued under it, whether the state can be believed (docs/design.md, "A registry that lost its
 * state"), and the transaction that takes the id only if nothing it judged on changed.
 */
final class EtcdAcquisition {
  enum Outcome {
    TAKE,
    FULL,
    TERMS
  }

  final Outcome outcome;
  final long id;

  /** What earlier holders may have issued: the id's mark, and lostUntil after a loss. */
  final long base;

  /** Why the id starts after a loss of the state, or "". */
  final String loss;

  /** Live leases on the ids the request may take (FULL), or on the namespace (TERMS). */
  final long live;

  final LeaseLimits recorded; // TERMS: the namespace's limits

  private final EtcdKeys keys;
  private final EtcdRecords read;
  private final AcquireRequest request;
  private final long now;
  private final long lostUntil; // Long.MIN_VALUE: none
  private final boolean lossFound; // this call found a loss of the prefix: it sets lostAt
  private final long clusterId;

  private EtcdAcquisition(
      Outcome outcome,
      long id,
      long base,
      String loss,
      long live,
      LeaseLimits recorded,
      EtcdKeys keys,
      EtcdRecords read,
      AcquireRequest request,
      long now,
      long lostUntil,
      boolean lossFound,
      long clusterId) {
    this.outcome = outcome;
    this.id = id;
    this.base = base;
    this.loss = loss;
    this.live = live;
    this.recorded = recorded;
    this.keys = keys;
    this.read = read;
    this.request = request;
    this.now = now;
    this.lostUntil = lostUntil;
    this.lossFound = lossFound;
    this.clusterId = clusterId;
  }

  /**
   * Judges a read.
   *
   * @param now the holder's clock (etcd has none in its answers): written times and lostUntil
   * @param clusterId the cluster that answered the read
   * @param wentBack why this client saw etcd go back (revision, cluster id), or null
   * @param knownAt with {@code wentBack}: the holder's clock when the last answer this client had
   *     from before the rollback arrived, or {@link Long#MAX_VALUE} if the rollback tells no time
   *     ({@link EtcdHistory.Loss#knownAt})
   */
  static EtcdAcquisition judge(
      EtcdKeys keys,
      EtcdRecords read,
      AcquireRequest request,
      long now,
      long clusterId,
      String wentBack,
      long knownAt) {
    long maxTtl = request.limits().maxTtl().toMillis();
    EtcdRecords.Field terms = read.namespace("terms");
    LeaseLimits recorded = null;
    if (terms.value() != null) {
      String[] f = terms.value().split(" ");
      recorded =
          new LeaseLimits(
              java.time.Duration.ofMillis(EtcdRecords.num(f[0])),
              java.time.Duration.ofMillis(EtcdRecords.num(f[1])));
    }
    // one set of limits per namespace while it has live leases (refusing is always safe)
    if (recorded != null && !recorded.equals(request.limits()) && !read.held.isEmpty()) {
      return new EtcdAcquisition(
          Outcome.TERMS,
          -1,
          0,
          "",
          read.held.size(),
          recorded,
          keys,
          read,
          request,
          now,
          Long.MIN_VALUE,
          false,
          clusterId);
    }

    LeaseLimits both = recorded == null ? request.limits() : recorded.max(request.limits());
    // Can the state be believed? (the rule and its reasons: docs/design.md)
    long registryWritten = read.registry("written").number();
    long marksWritten = newestMarkWrite(read, recorded, now);
    long registryTtl = read.registry("maxTtl").number();
    long recordedCluster = read.registry("cluster").number();
    long lostAt = read.registry("lostAt").number();
    String loss = "";
    // a rollback another process recorded after this client's last answer from before it is
    // taken on: its lostAt, below, covers every holder the rollback forgot
    if (wentBack != null && !recordedAfter(lostAt, knownAt, both.maxSkew().toMillis())) {
      loss = wentBack;
    } else if (registryWritten == Long.MIN_VALUE) {
      loss = "etcd has no state for the prefix (new, or it lost its data)";
    } else if (recordedCluster != Long.MIN_VALUE && recordedCluster != clusterId) {
      loss =
          "the prefix was written by etcd cluster "
              + Long.toHexString(recordedCluster)
              + " and is read from "
              + Long.toHexString(clusterId)
              + " (restored from a snapshot?)";
    } else if (now - Math.max(registryWritten, marksWritten)
        > (registryTtl == Long.MIN_VALUE ? maxTtl : Math.max(registryTtl, maxTtl))) {
      loss =
          "no write to the prefix for "
              + (now - Math.max(registryWritten, marksWritten))
              + " ms (idle, or etcd went back to an older state)";
    }
    boolean lossFound = !loss.isEmpty();
    long written = read.namespace("written").number();
    long records = Math.max(0, read.namespace("records").number());
    if (lossFound) {
      lostAt = now;
    } else if (written == Long.MIN_VALUE || recorded == null) {
      if (!read.marks.isEmpty()) {
        loss = "its records have no state (keys deleted by hand?)";
      } else if (read.remembered) {
        loss = "it has no state though the prefix created it (keys deleted by hand?)";
      }
    } else if (now - Math.max(written, marksWritten) > recorded.maxTtl().toMillis()) {
      loss =
          "no write to the namespace for "
              + (now - Math.max(written, marksWritten))
              + " ms (idle, or etcd went back to an older state)";
    } else if (read.marks.size() < records) {
      loss = "records are missing (" + read.marks.size() + " of " + records + ")";
    }
    long lt = both.maxTtl().toMillis();
    long ls = both.maxSkew().toMillis();
    long slack = LeaseLimits.SLACK.toMillis();
    long bound = Long.MIN_VALUE;
    if (!loss.isEmpty()) {
      bound = now + lt + ls + slack;
    } else if (lostAt != Long.MIN_VALUE && lostAt + lt + ls + slack > now) {
      bound = lostAt + lt + ls + slack;
      // lostAt may be later than now: recorded by a holder whose clock was ahead of this one's
      loss = "etcd lost the prefix's state " + Math.max(0, now - lostAt) + " ms ago";
    }
    long lostUntil = Math.max(read.namespace("lostUntil").number(), bound);

    // the instance's last id if free and allowed, else the lowest free allowed id
    long chosen = -1;
    long newest = -1;
    for (var e : read.marks.entrySet()) {
      if (e.getValue().instance().equals(request.instance())
          && e.getValue().revision() > newest
          && request.allows(e.getKey())) {
        newest = e.getValue().revision();
        chosen = read.held.containsKey(e.getKey()) ? -1 : e.getKey();
      }
    }
    for (long v = request.first(); chosen < 0 && v >= 0; v = request.next(v)) {
      if (!read.held.containsKey(v)) {
        chosen = v;
      }
    }
    if (chosen < 0) {
      long live = read.held.keySet().stream().filter(request::allows).count();
      return new EtcdAcquisition(
          Outcome.FULL,
          -1,
          0,
          loss,
          live,
          recorded,
          keys,
          read,
          request,
          now,
          lostUntil,
          false,
          clusterId);
    }
    EtcdRecords.Mark mark = read.marks.get(chosen);
    long base = mark == null ? Long.MIN_VALUE : mark.highWater();
    base = Math.max(base, lostUntil);
    return new EtcdAcquisition(
        Outcome.TAKE,
        chosen,
        base,
        loss,
        0,
        recorded,
        keys,
        read,
        request,
        now,
        lostUntil,
        lossFound,
        clusterId);
  }

  /**
   * Whether the prefix's {@code lostAt} was recorded after everything this client knew of the
   * history a rollback took away: more than {@code maxSkew} after {@code knownAt}, the arrival of
   * its last answer from before the rollback (the holders' clocks agree within {@code maxSkew}).
   * That history branched off before that answer, so a record written later was written in the new
   * history, by a holder that found the loss: its lostUntil covers every holder the rollback
   * forgot, and this client takes it on instead of recording the loss anew (docs/design.md, "The
   * etcd:// backend").
   */
  static boolean recordedAfter(long lostAt, long knownAt, long maxSkew) {
    return lostAt != Long.MIN_VALUE && knownAt != Long.MAX_VALUE && lostAt - maxSkew > knownAt;
  }

  /**
   * The transaction: takes the id if it is still free and nothing judged on changed (its record,
   * the namespace's limits, record count and lostUntil, the prefix's lostAt), attaching the id's
   * key to {@code etcdLease}, raising its mark and noting the newest write; else reads again.
   */
  Txn transaction(long etcdLease, String token, long expiresAt) {
    List<Cmp> ifs = new ArrayList<>();
    List<Op> then = new ArrayList<>();
    EtcdRecords.Mark mark = read.marks.get(id);
    long hw = Math.max(request.terms().mayIssueUntilMillis(), base);
    ifs.add(new Cmp(keys.held(id), Cmp.Op.EQUAL, CmpTarget.version(0)));
    ifs.add(
        new Cmp(
            keys.mark(id),
            Cmp.Op.EQUAL,
            CmpTarget.modRevision(mark == null ? 0 : mark.revision())));
    then.add(
        Op.put(
            keys.held(id),
            EtcdCalls.bytes(new EtcdRecords.Held(token, request.instance(), etcdLease).value()),
            PutOption.builder().withLeaseId(etcdLease).build()));
    then.add(
        put(
            keys.mark(id),
            new EtcdRecords.Mark(request.instance(), hw, base, expiresAt, false, 0).value()));
    compareNs(ifs, "terms");
    if (!request.limits().equals(recorded)) {
      then.add(
          put(
              keys.ns("terms"),
              request.limits().maxTtl().toMillis() + " " + request.limits().maxSkew().toMillis()));
    }
    compareNs(ifs, "records");
    long records = Math.max(0, read.namespace("records").number());
    long created = Math.max(records, read.marks.size() + (mark == null ? 1 : 0));
    if (created != records) {
      then.add(put(keys.ns("records"), Long.toString(created)));
    }
    compareNs(ifs, "lostUntil");
    if (lostUntil != read.namespace("lostUntil").number()) {
      then.add(put(keys.ns("lostUntil"), EtcdRecords.str(lostUntil)));
    }
    ifs.add(
        new Cmp(
            keys.registry("lostAt"),
            Cmp.Op.EQUAL,
            CmpTarget.modRevision(read.registry("lostAt").revision())));
    if (recordsLostAt()) {
      then.add(put(keys.registry("lostAt"), Long.toString(now)));
    }
    long registryTtl = read.registry("maxTtl").number();
    if (registryTtl < request.limits().maxTtl().toMillis()) {
      ifs.add(
          new Cmp(
              keys.registry("maxTtl"),
              Cmp.Op.EQUAL,
              CmpTarget.modRevision(read.registry("maxTtl").revision())));
      then.add(put(keys.registry("maxTtl"), Long.toString(request.limits().maxTtl().toMillis())));
    }
    if (read.registry("cluster").number() != clusterId) {
      then.add(put(keys.registry("cluster"), Long.toString(clusterId)));
    }
    if (!read.remembered) { // its creation, or an acquisition on a prefix without the memory
      then.add(put(EtcdCalls.bytes(keys.created), Long.toString(now)));
    }
    then.addAll(wrote(keys, now));
    return new Txn(ifs, then);
  }

  /** Whether the transaction records a loss of the prefix's state found now ({@code lostAt}). */
  boolean recordsLostAt() {
    return lossFound;
  }

  /**
   * Whether a judgement made on a view may go to etcd as it is: it takes an id, finds no loss and
   * keeps the namespace's limits. A refusal, a loss or new limits is judged again on a read: a view
   * may be late, and a transaction's compares guard what it writes, not what it refuses, nor the
   * live holders that new limits must not have (docs/design.md, "The etcd:// backend").
   */
  boolean fitsView() {
    return outcome == Outcome.TAKE && loss.isEmpty() && request.limits().equals(recorded);
  }

  /**
   * {@link #transaction} for a judgement made on a view: it also compares both {@code written} keys
   * and whether {@code P/created/NS} exists, so that the judgement that nothing was lost was made
   * on etcd's values too.
   */
  Txn transactionOnView(long etcdLease, String token, long expiresAt) {
    Txn t = transaction(etcdLease, token, expiresAt);
    List<Cmp> ifs = new ArrayList<>(t.ifs());
    ifs.add(
        new Cmp(
            EtcdCalls.bytes(keys.created),
            read.remembered ? Cmp.Op.GREATER : Cmp.Op.EQUAL,
            CmpTarget.version(0)));
    compareNs(ifs, "written");
    ifs.add(
        new Cmp(
            keys.registry("written"),
            Cmp.Op.EQUAL,
            CmpTarget.modRevision(read.registry("written").revision())));
    return new Txn(ifs, t.then());
  }

  /** A transaction's compares and writes. */
  record Txn(List<Cmp> ifs, List<Op> then) {}

  private void compareNs(List<Cmp> ifs, String field) {
    ifs.add(
        new Cmp(
            keys.ns(field), Cmp.Op.EQUAL, CmpTarget.modRevision(read.namespace(field).revision())));
  }

  /**
   * The newest write the namespace's live holders' marks show, by their writers' clocks: a holder
   * writes its mark with {@code expiresAt} = its clock + its ttl, and ttl is at most the recorded
   * {@code maxTtl}. The {@code written} keys hold the last writer's clock, which a holder whose
   * clock is behind moves back; each mark is one holder's own, so such a holder cannot hide the
   * others' renewals (docs/design.md, "The etcd:// backend"). Only ids with a live {@code held} key
   * count, and no mark beyond {@code now + maxTtl + maxSkew}: an abandoned mark, or one from a
   * clock far ahead, must not keep the loss rules off. {@link Long#MIN_VALUE} if none.
   */
  private static long newestMarkWrite(EtcdRecords read, LeaseLimits recorded, long now) {
    long newest = Long.MIN_VALUE;
    if (recorded == null) {
      return newest;
    }
    long maxTtl = recorded.maxTtl().toMillis();
    long latest = now + maxTtl + recorded.maxSkew().toMillis();
    for (Map.Entry<Long, EtcdRecords.Mark> e : read.marks.entrySet()) {
      EtcdRecords.Mark m = e.getValue();
      if (read.held.containsKey(e.getKey())
          && !m.released()
          && m.expiresAt() != Long.MIN_VALUE
          && m.expiresAt() <= latest) {
        newest = Math.max(newest, m.expiresAt() - maxTtl);
      }
    }
    return newest;
  }

  static Op put(io.etcd.jetcd.ByteSequence key, String value) {
    return Op.put(key, EtcdCalls.bytes(value), PutOption.DEFAULT);
  }

  /** Every call that changes a namespace notes when: its newest write, and the prefix's. */
  static List<Op> wrote(EtcdKeys keys, long now) {
    return List.of(
        put(keys.ns("written"), Long.toString(now)),
        put(keys.registry("written"), Long.toString(now)));
  }
}
