package io.snowid.zookeeper;

import static io.snowid.zookeeper.Records.NONE;

import io.snowid.InvalidSettingException;
import io.snowid.lease.AcquireRequest;
import io.snowid.lease.Lease;
import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseInfo;
import io.snowid.lease.LeaseLimits;
import io.snowid.lease.LeaseListing;
import io.snowid.lease.LeaseTakenException;
import io.snowid.lease.LeaseTerms;
import io.snowid.lease.NamespaceState;
import io.snowid.lease.RegistryUnavailableException;
import io.snowid.node.NodeIdUnavailableException;
import io.snowid.zookeeper.Records.IdRecord;
import io.snowid.zookeeper.Records.Registry;
import io.snowid.zookeeper.Records.State;
import io.snowid.zookeeper.Trip.Answer;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * Leases node ids on ZooKeeper: an id is held by an ephemeral node of its holder's session, and
 * keeps a persistent record of its high-water mark. Every time is the ensemble's ({@code mtime} of
 * a node this call wrote); the rules are in docs/design.md, "The {@code zookeeper://} backend".
 *
 * <p>Longer than ~500 lines because each call's reads, its one conditional transaction and what
 * each of its answers means sit together, as in the Redis and JDBC coordinators.
 */
final class ZooKeeperLeaseCoordinator implements LeaseCoordinator {
  /*
   * The rationale is docs/design.md, section 4, "The zookeeper:// backend": the znodes, the round
   * trips per call, expiry by session, fencing on SUSPENDED and LOST, ttl and the session timeout,
   * skew by mtime, the loss rules and zxid rollback, and each call's time bound.
   */
  private static final System.Logger LOG = System.getLogger("io.snowid.zookeeper");
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._:-]{1,200}");
  private static final byte[] EMPTY = new byte[0];
  private static final long MIN_BOUND_MILLIS = 100;

  /** How long an operator's call may take: no lease bounds it. */
  private static final long OPERATOR_BOUND_MILLIS = 5_000;

  /**
   * Acquisitions that lose a race (another holder wrote first) try again, this many times, each
   * after a random pause of up to 2^attempt ms: every acquisition of a namespace writes its state,
   * so two holders acquiring at once conflict whatever ids they chose, and without the pause the
   * slower one can lose every time to the other's next acquisition.
   */
  private static final int ATTEMPTS = 8;

  /** Attempts that take their candidate from a view; the rest list the held ids afresh. */
  private static final int VIEW_ATTEMPTS = 2;

  /**
   * An id this coordinator holds: what its next renewal or release must find unchanged. The
   * creation zxids tell a node of this acquisition from one made again after a loss, whose version
   * starts over.
   */
  private record Held(
      String ns,
      Session session,
      long sessionId,
      long generation,
      int heldVersion,
      long heldCzxid,
      int recordVersion,
      long recordCzxid,
      long mzxid,
      int memoryVersion,
      IdRecord record) {}

  private final ZooKeeperSettings settings;
  private final List<ACL> acl;
  private final Map<Long, Session> sessions = new ConcurrentHashMap<>();
  private final Session operator;
  private final Map<String, Held> held = new ConcurrentHashMap<>();
  private final AtomicLong roundTrips = new AtomicLong();
  private final AtomicLong listings = new AtomicLong();

  /** Per session and namespace: the held ids, watched (see {@link #view}). */
  private final Map<String, HeldView> views = new ConcurrentHashMap<>();

  /** The highest transaction id a write of this coordinator was confirmed at; restores found. */
  private final Restores restores;

  private volatile boolean closed;

  private ZooKeeperLeaseCoordinator(ZooKeeperSettings settings, Session operator) {
    this.settings = settings;
    this.acl =
        settings.digest() == null ? ZooDefs.Ids.OPEN_ACL_UNSAFE : ZooDefs.Ids.CREATOR_ALL_ACL;
    this.operator = operator;
    this.restores = new Restores(path("registry"));
    sessions.put(operator.askedMillis(), operator);
  }

  /**
   * Connects to the ensemble of a URI (without snowid's lease options) with a session for the
   * default lease time, and makes sure the chroot exists and may be written.
   *
   * @throws InvalidSettingException if the URI is malformed
   * @throws RegistryUnavailableException if no server answers yet
   * @throws NodeIdUnavailableException for an unknown host or refused credentials
   */
  static ZooKeeperLeaseCoordinator open(String uri) {
    ZooKeeperSettings settings = ZooKeeperSettings.parse(uri);
    Session first = Session.open(settings, ZooKeeperLeaseProvider.DEFAULT_TTL.toMillis());
    ZooKeeperLeaseCoordinator c = new ZooKeeperLeaseCoordinator(settings, first);
    try {
      c.prepareRoot(first);
    } catch (RuntimeException e) {
      c.close();
      throw e;
    }
    return c;
  }

  // ---- paths ----

  private String path(String node) {
    return settings.root() + "/" + node;
  }

  private String ns(String namespace) {
    if (namespace == null
        || !NAME.matcher(namespace).matches()
        || namespace.equals(".")
        || namespace.equals("..")) {
      throw new InvalidSettingException(
          "namespace", namespace, "1 to 200 of A-Z a-z 0-9 . _ : - (not . or ..)");
    }
    return path("ns/" + namespace);
  }

  private static String lastOf(String ns, String instance) {
    return ns + "/last/i-" + instance;
  }

  /**
   * Creates the chroot, its {@code ns} and {@code clock} nodes if missing, and writes the clock.
   */
  private void prepareRoot(Session s) {
    Trip trip = trip(s, OPERATOR_BOUND_MILLIS, "opening");
    String root = settings.root();
    List<String> paths = new ArrayList<>();
    for (int i = root.indexOf('/', 1); i > 0; i = root.indexOf('/', i + 1)) {
      paths.add(root.substring(0, i));
    }
    paths.addAll(List.of(root, path("ns"), path("clock")));
    for (String p : paths) {
      Answer a = trip.multi(List.of(Op.create(p, EMPTY, acl, CreateMode.PERSISTENT)));
      if (!a.ok() && a.code() != Code.NODEEXISTS) {
        throw new NodeIdUnavailableException(
            "cannot create "
                + p
                + " on ZooKeeper at "
                + describe()
                + ": "
                + Trip.describe(a.code()));
      }
    }
    clock(trip); // the clock may be written: a wrong password fails here, at once
  }

  /** Writes the clock node: its stat carries the ensemble's time and transaction id now. */
  private Stat clock(Trip trip) {
    Answer a = trip.multi(List.of(Op.setData(path("clock"), EMPTY, -1)));
    if (!a.ok()) {
      throw new NodeIdUnavailableException(
          "cannot write "
              + path("clock")
              + " on ZooKeeper at "
              + describe()
              + ": "
              + Trip.describe(a.code()));
    }
    return stat(a.results().get(0));
  }

  private Trip trip(Session s, long boundMillis, String what) {
    if (closed) {
      throw new NodeIdUnavailableException("the coordinator of " + describe() + " is closed");
    }
    roundTrips.incrementAndGet();
    return new Trip(
        s.handle(), Math.max(MIN_BOUND_MILLIS, boundMillis), what, describe(), listings);
  }

  /** The session whose timeout is the lease time asked, opened on first use. */
  private Session sessionFor(Duration ttl) {
    long asked = ttl.toMillis();
    Session s = sessions.computeIfAbsent(asked, a -> Session.open(settings, a));
    if (s.grantedMillis() < asked) {
      throw new InvalidSettingException(
          "ttl",
          LeaseLimits.text(ttl),
          "at most the session timeout ZooKeeper at "
              + describe()
              + " grants: asked "
              + LeaseLimits.text(ttl)
              + ", granted "
              + LeaseLimits.text(Duration.ofMillis(s.grantedMillis()))
              + " (an ensemble grants tickTime × 2 to tickTime × 20, its minSessionTimeout to"
              + " maxSessionTimeout; a lease lives as long as its session, so lower ttl or raise"
              + " maxSessionTimeout on every server)");
    }
    return s;
  }

  // ---- acquire ----

  @Override
  public Lease acquire(AcquireRequest request) {
    String ns = ns(request.namespace());
    if (!NAME.matcher(request.instance()).matches()) {
      throw new InvalidSettingException(
          "instance", request.instance(), "1 to 200 of A-Z a-z 0-9 . _ : -");
    }
    Session s = sessionFor(request.terms().ttl());
    Trip trip = trip(s, request.terms().ttl().toMillis() / 2, "acquire");
    String token = UUID.randomUUID().toString();
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      HeldView view = attempt <= VIEW_ATTEMPTS ? view(s, ns) : null;
      Lease lease = tryAcquire(s, trip, request, ns, token, view);
      if (lease != null) {
        return lease;
      }
      if (view != null) {
        view.reload(); // it may be what was wrong: listed again, and not used until then
      }
      if (attempt < ATTEMPTS) {
        trip.pause(ThreadLocalRandom.current().nextLong(1L << attempt));
      }
    }
    throw new RegistryUnavailableException(
        "namespace "
            + request.namespace()
            + " on "
            + describe()
            + ": other holders wrote first "
            + ATTEMPTS
            + " times in a row; try again");
  }

  /**
   * The node by which the chroot remembers creating a namespace, outside the namespace's own nodes:
   * a namespace it remembers without state lost it.
   */
  private String created(String namespace) {
    return path("registry/ns/" + namespace);
  }

  /**
   * The view of a namespace's held ids on the session's current handle, opened by an acquisition of
   * a coordinator that already holds an id of the namespace through that session (one that holds a
   * single id lists, and watches nothing: docs/design.md, "The zookeeper:// backend"); null when
   * there is none.
   */
  private HeldView view(Session s, String ns) {
    String key = s.askedMillis() + " " + ns;
    ZooKeeper zk = s.handle();
    HeldView v = views.get(key);
    if (v != null && v.handle() != zk) { // the session was replaced: its watch is gone
      views.remove(key, v);
      v.close();
      v = null;
    }
    if (v == null && holdsIn(s, zk.getSessionId(), ns)) {
      v = HeldView.open(zk, ns + "/held", listings);
      HeldView other = views.putIfAbsent(key, v);
      if (other != null || closed) {
        v.close();
        v = other;
      }
    }
    return v;
  }

  private boolean holdsIn(Session s, long sessionId, String ns) {
    for (Held h : held.values()) {
      if (h.session() == s && h.sessionId() == sessionId && h.ns().equals(ns)) {
        return true;
      }
    }
    return false;
  }

  /** The lowest id the request allows that is not in {@code taken}; -1 if none. */
  private static long lowestFree(AcquireRequest request, Set<Long> taken) {
    for (long id = request.first(); id >= 0; id = request.next(id)) {
      if (!taken.contains(id)) {
        return id;
      }
    }
    return -1;
  }

  /**
   * One attempt: the ensemble's time and the namespace's nodes (pipelined, one round trip; with a
   * ready view, also the record of the id it shows free, else the listing of the held ids), the
   * chosen id's record unless read already, then one transaction that creates the id's ephemeral
   * node only if nobody holds it and writes the record and state only if nobody changed them. Null
   * if another holder wrote first.
   */
  private Lease tryAcquire(
      Session s, Trip trip, AcquireRequest request, String ns, String token, HeldView view) {
    String instance = request.instance();
    HeldView.Snapshot guess = view == null ? null : view.snapshot();
    long candidate = guess == null ? -1 : lowestFree(request, guess.ids());
    List<Op> reads =
        new ArrayList<>(
            List.of(
                Op.getData(path("registry")),
                Op.getData(path("written")),
                Op.getData(ns),
                Op.getData(ns + "/written"),
                Op.getData(ns + "/held"),
                Op.getData(ns + "/ids"),
                Op.getData(ns + "/last"),
                Op.getData(lastOf(ns, instance)),
                Op.getData(path("registry/ns")),
                Op.getData(created(request.namespace()))));
    if (guess == null) {
      reads.add(Op.getChildren(ns + "/held"));
    } else if (candidate >= 0) {
      reads.add(Op.getData(ns + "/ids/" + candidate));
    }
    String foundNode = restores.foundNode();
    if (foundNode != null) {
      reads.add(Op.getData(foundNode));
    }
    CompletableFuture<Answer> clock = trip.send(List.of(Op.setData(path("clock"), EMPTY, -1)));
    CompletableFuture<Answer> read = trip.send(reads);
    Answer c = trip.await(clock);
    Answer r = trip.await(read);
    if (!c.ok()) {
      prepareRoot(s); // the chroot was deleted: a loss, which the registry node's absence shows
      return null;
    }
    Stat clockStat = stat(c.results().get(0));
    long now = clockStat.getMtime();
    List<OpResult> v = r.results();
    Stat registryStat = stat(v.get(0));
    Registry registry = registryStat == null ? null : Registry.parse(data(v.get(0)));
    Restores.Verdict history =
        restores.judge(
            clockStat.getMzxid(),
            foundNode,
            foundNode != null && stat(v.get(v.size() - 1)) != null,
            registry == null ? NONE : registry.lostAt(),
            request.limits().maxSkew().toMillis());
    String rollback = history.rollback();
    try {
      Stat stateStat = stat(v.get(2));
      State state = stateStat == null ? null : State.parse(data(v.get(2)));
      Stat heldStat = stat(v.get(4));
      Stat idsStat = stat(v.get(5));
      int records = idsStat == null ? 0 : idsStat.getNumChildren();
      boolean lastDir = stat(v.get(6)) != null;
      Long last = stat(v.get(7)) == null ? null : id(Records.text(data(v.get(7))));
      boolean createdDir = stat(v.get(8)) != null;
      Stat memory = stat(v.get(9));
      boolean remembered = memory != null;
      Judgment j =
          Judgment.of(
              new Judgment.View(
                  now,
                  registry,
                  mtime(v.get(1)),
                  state,
                  mtime(v.get(3)),
                  heldStat == null ? 0 : heldStat.getNumChildren(),
                  records,
                  remembered,
                  rollback),
              request,
              describe());
      Set<Long> taken = taken(trip, ns, view, heldStat, guess == null ? v.get(10) : null);
      long chosen =
          last != null && request.allows(last) && !taken.contains(last)
              ? last
              : lowestFree(request, taken);
      if (chosen < 0) {
        throw new NodeIdUnavailableException(
            "all "
                + request.count()
                + " node ids of namespace "
                + request.namespace()
                + allowedBy(request)
                + " on "
                + describe()
                + " are held ("
                + taken.size()
                + " live leases)");
      }
      String recordPath = ns + "/ids/" + chosen;
      IdRecord old = null;
      int oldVersion = -1;
      OpResult rec = null;
      if (guess != null && chosen == candidate) {
        rec = v.get(10); // read with the namespace
      } else if (records > 0) {
        roundTrips.incrementAndGet();
        rec = trip.multi(List.of(Op.getData(recordPath))).results().get(0);
      }
      Stat st = rec == null ? null : stat(rec);
      if (st != null) {
        old = IdRecord.parse(data(rec));
        oldVersion = st.getVersion();
      }
      long base = old == null ? NONE : old.highWater();
      if (j.lostUntil() != NONE && (base == NONE || j.lostUntil() > base)) {
        base = j.lostUntil();
      }
      long promise = request.terms().mayIssueUntilMillis();
      long hw = base == NONE ? promise : Math.max(base, promise);
      IdRecord record = new IdRecord(instance, token, hw, base, s.grantedMillis());
      State newState =
          new State(
              j.state().maxTtl(),
              j.state().maxSkew(),
              j.state().records() + (oldVersion < 0 ? 1 : 0),
              j.state().lostUntil());

      List<Op> ops = new ArrayList<>();
      if (registryStat == null) {
        ops.add(Op.create(path("registry"), j.registry().bytes(), acl, CreateMode.PERSISTENT));
      } else if (j.registryChanged()) {
        ops.add(Op.setData(path("registry"), j.registry().bytes(), registryStat.getVersion()));
      }
      if (!createdDir) {
        ops.add(Op.create(path("registry/ns"), EMPTY, acl, CreateMode.PERSISTENT));
      }
      int memoryVersion;
      if (!remembered) { // its creation, or an acquisition on a chroot without the memory
        ops.add(Op.create(created(request.namespace()), EMPTY, acl, CreateMode.PERSISTENT));
        memoryVersion = 0;
      } else if (stateStat == null) { // made again: the holders of its earlier nodes write no more
        ops.add(Op.setData(created(request.namespace()), EMPTY, memory.getVersion()));
        memoryVersion = memory.getVersion() + 1;
      } else {
        memoryVersion = memory.getVersion();
      }
      ops.add(touch(path("written"), stat(v.get(1)) != null));
      ops.add(
          stateStat == null
              ? Op.create(ns, newState.bytes(), acl, CreateMode.PERSISTENT)
              : Op.setData(ns, newState.bytes(), stateStat.getVersion()));
      ops.add(touch(ns + "/written", stat(v.get(3)) != null));
      if (heldStat == null) {
        ops.add(Op.create(ns + "/held", EMPTY, acl, CreateMode.PERSISTENT));
      }
      if (idsStat == null) {
        ops.add(Op.create(ns + "/ids", EMPTY, acl, CreateMode.PERSISTENT));
      }
      if (!lastDir) {
        ops.add(Op.create(ns + "/last", EMPTY, acl, CreateMode.PERSISTENT));
      }
      ops.add(Op.create(ns + "/held/" + chosen, Records.join(token), acl, CreateMode.EPHEMERAL));
      int recordIndex = ops.size();
      ops.add(
          oldVersion < 0
              ? Op.create(recordPath, record.bytes(), acl, CreateMode.PERSISTENT)
              : Op.setData(recordPath, record.bytes(), oldVersion));
      byte[] lastBytes = Records.join(Long.toString(chosen));
      ops.add(
          last == null
              ? Op.create(lastOf(ns, instance), lastBytes, acl, CreateMode.PERSISTENT)
              : Op.setData(lastOf(ns, instance), lastBytes, -1));
      Restores.Record restore = history.record();
      if (restore != null) { // with the loss it records or takes on: the history it knows
        ops.add(Op.create(restore.node, EMPTY, acl, CreateMode.PERSISTENT));
      }
      roundTrips.incrementAndGet();
      Answer w = trip.multi(ops);
      if (!w.ok()) {
        if (w.code() == Code.NODEEXISTS || w.code() == Code.BADVERSION || w.code() == Code.NONODE) {
          return null; // another holder wrote first: read again
        }
        throw new NodeIdUnavailableException(
            "acquire on ZooKeeper at " + describe() + " failed: " + Trip.describe(w.code()));
      }
      Stat written = anyStat(w.results());
      if (written == null) { // every node was new: read the record's own stat
        roundTrips.incrementAndGet();
        written = stat(trip.multi(List.of(Op.getData(recordPath))).results().get(0));
        if (written == null) {
          return null;
        }
      }
      long zxid = written.getMzxid(); // one transaction: every node it created has this czxid
      if (restore == null) {
        restores.confirmed(zxid, written.getMtime());
      } else {
        restores.recorded(restore, zxid, written.getMtime());
      }
      Stat recordStat = oldVersion < 0 ? null : stat(w.results().get(recordIndex));
      held.put(
          token,
          new Held(
              ns,
              s,
              trip.sessionId(),
              s.generation(),
              0,
              zxid,
              oldVersion + 1,
              recordStat == null ? zxid : recordStat.getCzxid(),
              zxid,
              memoryVersion,
              record));
      String reason =
          j.loss().isEmpty()
              ? ""
              : "namespace "
                  + request.namespace()
                  + " on "
                  + describe()
                  + ": "
                  + j.loss()
                  + "; so that no holder it forgot may still issue, its ids start after maxTtl +"
                  + " maxSkew + 1s ("
                  + request.limits()
                  + ")";
      return new Lease(
          request.namespace(),
          chosen,
          instance,
          token,
          now, // the ensemble's time early in the call, as the skew check reads it
          written.getMtime() + s.grantedMillis(),
          base,
          reason);
    } finally {
      if (history.record() != null) {
        restores.settled(history.record());
      }
    }
  }

  /**
   * The ids held when the namespace was read: none without a {@code held} node; the listing read
   * with it, if it was; else the view, if it is at the {@code held} node's version that was read;
   * else (the view missed events, or moved on since) a listing of its own, and the view lists
   * again.
   */
  private Set<Long> taken(Trip trip, String ns, HeldView view, Stat heldStat, OpResult listed) {
    if (heldStat == null) {
      return Set.of();
    }
    if (listed == null) {
      HeldView.Snapshot now = view.snapshot();
      if (now != null && now.matches(heldStat)) {
        return now.ids();
      }
      view.reload();
      roundTrips.incrementAndGet();
      listed = trip.multi(List.of(Op.getChildren(ns + "/held"))).results().get(0);
    }
    Set<Long> ids = ids(listed);
    return ids == null ? Set.of() : ids;
  }

  private Op touch(String path, boolean exists) {
    return exists
        ? Op.setData(path, EMPTY, -1)
        : Op.create(path, EMPTY, acl, CreateMode.PERSISTENT);
  }

  /** Which ids a request with fixed bits may take, for messages; "" when it may take any. */
  private static String allowedBy(AcquireRequest request) {
    return request.mask() == 0
        ? ""
        : " whose fixed bits match (mask "
            + request.mask()
            + ", match "
            + request.match()
            + ", of "
            + request.size()
            + ")";
  }

  // ---- renew ----

  @Override
  public Lease renew(Lease lease, LeaseTerms terms) {
    Held h = held.get(lease.token());
    if (h == null) {
      throw taken(lease, "this coordinator does not hold it (released, or lost before)");
    }
    Session s = h.session();
    if (s.generation() != h.generation() || s.handle().getSessionId() != h.sessionId()) {
      held.remove(lease.token());
      String rolledBack = rolledBack(s, h);
      throw taken(
          lease,
          rolledBack != null
              ? rolledBack
              : "its ZooKeeper session was lost (expired, or disconnected past its timeout of "
                  + LeaseLimits.text(Duration.ofMillis(s.grantedMillis()))
                  + "): the ensemble deleted its ephemeral node");
    }
    String ns = ns(lease.namespace());
    long promise = terms.mayIssueUntilMillis();
    IdRecord next = raised(h.record(), promise, s.grantedMillis());
    Trip trip = trip(s, terms.ttl().toMillis() / 3, "renew").expiryAnswers();
    Answer a = trip.multi(renewal(ns, lease, h, next));
    if (!a.ok() && a.code() != Code.SESSIONEXPIRED) {
      Held applied = ownUnanswered(trip, ns, lease, h);
      if (applied != null) { // an earlier renewal was applied but not answered in time
        h = applied;
        next = raised(h.record(), promise, s.grantedMillis());
        a = trip.multi(renewal(ns, lease, h, next));
      }
    }
    if (a.code() == Code.SESSIONEXPIRED) {
      held.remove(lease.token());
      throw taken(
          lease,
          "its ZooKeeper session expired: the ensemble deleted its ephemeral node (the next"
              + " acquisition of this process finds whether the ensemble went back to an older"
              + " state)");
    }
    if (!a.ok()) {
      held.remove(lease.token());
      throw taken(lease, judgeLost(trip, ns, lease, h));
    }
    Stat hs = stat(a.results().get(0));
    Stat st = stat(a.results().get(1));
    if (hs.getCzxid() != h.heldCzxid()
        || hs.getEphemeralOwner() != h.sessionId()
        || st.getCzxid() != h.recordCzxid()) {
      held.remove(lease.token());
      throw taken(
          lease, "its nodes were made again by another holder" + lostBefore(recordLoss(trip, ns)));
    }
    restores.confirmed(st.getMzxid(), st.getMtime());
    if (st.getMzxid() < h.mzxid()) {
      held.remove(lease.token());
      throw taken(lease, rollback(trip, ns, h.mzxid(), st.getMzxid()));
    }
    held.put(
        lease.token(),
        new Held(
            ns,
            s,
            h.sessionId(),
            h.generation(),
            hs.getVersion(),
            h.heldCzxid(),
            st.getVersion(),
            h.recordCzxid(),
            st.getMzxid(),
            h.memoryVersion(),
            next));
    return new Lease(
        lease.namespace(),
        lease.nodeId(),
        lease.instance(),
        lease.token(),
        st.getMtime(),
        st.getMtime() + s.grantedMillis(),
        lease.highWaterMillis());
  }

  /** The record with its high-water mark raised to a promise (never lowered). */
  private static IdRecord raised(IdRecord r, long promise, long timeoutMillis) {
    return new IdRecord(
        r.instance(),
        r.token(),
        r.highWater() == NONE ? promise : Math.max(r.highWater(), promise),
        r.base(),
        timeoutMillis);
  }

  /**
   * A renewal's transaction: both nodes at the versions this holder wrote last, and the touches;
   * only while the namespace is the one its acquisition wrote in (the chroot's memory of it at the
   * version then: a namespace made again after a deletion has nodes at versions that start at 0
   * again, which a version alone cannot tell from this holder's).
   */
  private List<Op> renewal(String ns, Lease lease, Held h, IdRecord next) {
    return List.of(
        Op.setData(ns + "/held/" + lease.nodeId(), Records.join(lease.token()), h.heldVersion()),
        Op.setData(ns + "/ids/" + lease.nodeId(), next.bytes(), h.recordVersion()),
        Op.setData(ns + "/written", EMPTY, -1),
        Op.setData(path("written"), EMPTY, -1),
        Op.check(created(lease.namespace()), h.memoryVersion()));
  }

  /**
   * The holder's nodes at newer versions that only this holder can have written (the ephemeral node
   * of its session and acquisition, the record with its token): a renewal that the ensemble applied
   * but did not answer in time. Null if they are not that.
   */
  private Held ownUnanswered(Trip trip, String ns, Lease lease, Held h) {
    Answer r =
        trip.multi(
            List.of(
                Op.getData(ns + "/held/" + lease.nodeId()),
                Op.getData(ns + "/ids/" + lease.nodeId())));
    Stat hs = stat(r.results().get(0));
    Stat rs = stat(r.results().get(1));
    IdRecord rec = rs == null ? null : IdRecord.parse(data(r.results().get(1)));
    if (hs == null
        || rec == null
        || !rec.token().equals(lease.token())
        || hs.getEphemeralOwner() != h.sessionId()
        || hs.getCzxid() != h.heldCzxid()
        || rs.getCzxid() != h.recordCzxid()
        || rs.getVersion() <= h.recordVersion()
        || rs.getMzxid() < h.mzxid()) {
      return null;
    }
    return new Held(
        h.ns(),
        h.session(),
        h.sessionId(),
        h.generation(),
        hs.getVersion(),
        h.heldCzxid(),
        rs.getVersion(),
        h.recordCzxid(),
        rs.getMzxid(),
        h.memoryVersion(),
        rec);
  }

  private static LeaseTakenException taken(Lease lease, String why) {
    return new LeaseTakenException(lease.namespace(), lease.nodeId(), why);
  }

  /**
   * After the session was lost: whether the ensemble's transaction id is now below the one this
   * holder last confirmed (a restored older snapshot); if so, records the loss and says so; null
   * otherwise or when the ensemble cannot be asked.
   */
  private String rolledBack(Session s, Held h) {
    try {
      Trip trip = trip(s, OPERATOR_BOUND_MILLIS, "renew");
      long zxid =
          stat(trip.multi(List.of(Op.setData(path("clock"), EMPTY, -1))).results().get(0))
              .getMzxid();
      if (zxid < h.mzxid()) {
        return rollback(trip, h.ns(), h.mzxid(), zxid);
      }
    } catch (RuntimeException e) {
      // the ensemble does not answer yet: the session's loss is reason enough
    }
    return null;
  }

  private String rollback(Trip trip, String ns, long confirmed, long now) {
    long lostUntil = recordLoss(trip, ns);
    return "the ensemble's transaction id went back (0x"
        + Long.toHexString(now)
        + ", this holder had confirmed 0x"
        + Long.toHexString(confirmed)
        + "): ZooKeeper restored an older snapshot; newcomers start after "
        + (lostUntil == NONE ? "lostUntil" : Instant.ofEpochMilli(lostUntil).toString());
  }

  /**
   * Why a renewal's transaction failed while the session lives: nobody may take, release or delete
   * an id before its session ends, so each answer means the ensemble lost or rolled back writes;
   * the loss is recorded.
   */
  private String judgeLost(Trip trip, String ns, Lease lease, Held h) {
    Answer r =
        trip.multi(
            List.of(
                Op.getData(ns),
                Op.getData(ns + "/ids/" + lease.nodeId()),
                Op.getData(ns + "/held/" + lease.nodeId())));
    List<OpResult> v = r.results();
    String why;
    if (stat(v.get(0)) == null) {
      why =
          describe()
              + " has no state for the namespace: ZooKeeper lost its data, or the nodes were deleted";
    } else if (stat(v.get(1)) == null) {
      why = "its record is gone from " + describe();
    } else {
      IdRecord rec = IdRecord.parse(data(v.get(1)));
      int version = stat(v.get(1)).getVersion();
      if (rec != null && rec.token().equals(lease.token()) && version < h.recordVersion()) {
        why =
            "its record went back to an older version ("
                + version
                + ", this holder had written "
                + h.recordVersion()
                + "): ZooKeeper restored an older snapshot";
      } else if (rec != null && rec.released()) {
        why = "released by another";
      } else if (rec != null && !rec.token().equals(lease.token())) {
        why = "taken by another holder";
      } else if (stat(v.get(2)) == null) {
        why = "its ephemeral node is gone while its session lives";
      } else {
        why = "its nodes changed under it";
      }
    }
    return why + lostBefore(recordLoss(trip, ns));
  }

  private static String lostBefore(long lostUntil) {
    return " before its session ended: ZooKeeper lost or rolled back its writes; newcomers start"
        + " after "
        + (lostUntil == NONE ? "lostUntil" : Instant.ofEpochMilli(lostUntil).toString());
  }

  /**
   * Records a loss found by a holder: the registry's {@code lostAt} (every namespace's newcomers
   * wait from it) and the namespace's {@code lostUntil}; the latter, or NONE if it cannot be
   * written.
   */
  private long recordLoss(Trip trip, String ns) {
    try {
      long now =
          stat(trip.multi(List.of(Op.setData(path("clock"), EMPTY, -1))).results().get(0))
              .getMtime();
      Answer r = trip.multi(List.of(Op.getData(path("registry")), Op.getData(ns)));
      Stat rs = stat(r.results().get(0));
      Stat ss = stat(r.results().get(1));
      Registry rg = rs == null ? null : Registry.parse(data(r.results().get(0)));
      State st = ss == null ? null : State.parse(data(r.results().get(1)));
      long maxTtl =
          st == null || st.maxTtl() == NONE ? LeaseLimits.DEFAULT.maxTtl().toMillis() : st.maxTtl();
      long maxSkew =
          st == null || st.maxSkew() == NONE
              ? LeaseLimits.DEFAULT.maxSkew().toMillis()
              : st.maxSkew();
      long lostUntil = now + maxTtl + maxSkew + LeaseLimits.SLACK.toMillis();
      if (rg != null && restores.recordedAfterEveryWrite(rg.lostAt(), maxSkew)) {
        // the loss that took this holder's writes is recorded already: wait for that one
        lostUntil = rg.lostAt() + maxTtl + maxSkew + LeaseLimits.SLACK.toMillis();
        return st == null || st.lostUntil() == NONE
            ? lostUntil
            : Math.max(lostUntil, st.lostUntil());
      }
      if (st != null && st.lostUntil() != NONE) {
        lostUntil = Math.max(lostUntil, st.lostUntil());
      }
      List<Op> ops = new ArrayList<>();
      Registry next = new Registry(now, rg == null || rg.maxTtl() == NONE ? maxTtl : rg.maxTtl());
      ops.add(
          rs == null
              ? Op.create(path("registry"), next.bytes(), acl, CreateMode.PERSISTENT)
              : Op.setData(path("registry"), next.bytes(), -1));
      if (st != null) {
        ops.add(
            Op.setData(
                ns,
                new State(st.maxTtl(), st.maxSkew(), st.records(), lostUntil).bytes(),
                ss.getVersion()));
      }
      return trip.multi(ops).ok() ? lostUntil : NONE;
    } catch (RuntimeException e) {
      return NONE;
    }
  }

  // ---- release ----

  @Override
  public void release(Lease lease, long issuedUpToMillis) {
    Held h = held.remove(lease.token());
    if (h == null) {
      return;
    }
    Session s = h.session();
    if (s.generation() != h.generation() || s.handle().getSessionId() != h.sessionId()) {
      return; // the session ended: its ephemeral node is gone, the record keeps its promise
    }
    IdRecord r = h.record();
    long hw = r.base();
    if (issuedUpToMillis != Long.MIN_VALUE && (hw == NONE || issuedUpToMillis > hw)) {
      hw = issuedUpToMillis;
    }
    String ns = ns(lease.namespace());
    long granted = lease.expiresAtMillis() - lease.coordinatorNowMillis();
    Trip trip = trip(s, granted / 3, "release");
    trip.multi(
        List.of(
            Op.delete(ns + "/held/" + lease.nodeId(), h.heldVersion()),
            Op.setData(
                ns + "/ids/" + lease.nodeId(), r.releasedWith(hw).bytes(), h.recordVersion()),
            Op.setData(ns + "/written", EMPTY, -1),
            Op.setData(path("written"), EMPTY, -1),
            Op.check(created(lease.namespace()), h.memoryVersion())));
    // not ours any more (taken after a loss): nothing to release
  }

  // ---- operators ----

  @Override
  public LeaseListing list(String namespace) {
    String ns = ns(namespace);
    Trip trip = trip(operator, OPERATOR_BOUND_MILLIS, "list");
    CompletableFuture<Answer> clock = trip.send(List.of(Op.setData(path("clock"), EMPTY, -1)));
    CompletableFuture<Answer> read =
        trip.send(
            List.of(
                Op.getData(ns),
                Op.getData(ns + "/written"),
                Op.getChildren(ns + "/ids"),
                Op.getChildren(ns + "/held")));
    Answer c = trip.await(clock);
    Answer r = trip.await(read);
    long now = c.ok() ? stat(c.results().get(0)).getMtime() : System.currentTimeMillis();
    List<OpResult> v = r.results();
    Set<Long> ids = ids(v.get(2));
    Set<Long> holders = ids(v.get(3));
    Optional<NamespaceState> nsState = Optional.empty();
    State st = stat(v.get(0)) == null ? null : State.parse(data(v.get(0)));
    if (st != null && st.maxTtl() != NONE && st.maxSkew() != NONE) {
      nsState =
          Optional.of(
              new NamespaceState(
                  new LeaseLimits(Duration.ofMillis(st.maxTtl()), Duration.ofMillis(st.maxSkew())),
                  mtime(v.get(1)),
                  st.lostUntil()));
    }
    TreeMap<Long, LeaseInfo> byId = new TreeMap<>();
    if (ids != null && !ids.isEmpty()) {
      List<Long> order = new ArrayList<>(ids);
      List<Op> reads = new ArrayList<>();
      for (long id : order) {
        reads.add(Op.getData(ns + "/ids/" + id));
      }
      roundTrips.incrementAndGet();
      List<OpResult> recs = trip.multi(reads).results();
      for (int i = 0; i < order.size(); i++) {
        Stat rs = stat(recs.get(i));
        IdRecord rec = rs == null ? null : IdRecord.parse(data(recs.get(i)));
        if (rec == null) {
          continue;
        }
        long id = order.get(i);
        long expires = rs.getMtime() + Math.max(0, rec.timeoutMillis());
        LeaseInfo.State state;
        if (holders != null && holders.contains(id)) {
          state = LeaseInfo.State.HELD;
        } else if (rec.released()) {
          state = LeaseInfo.State.RELEASED;
          expires = Long.MIN_VALUE;
        } else {
          state = LeaseInfo.State.EXPIRED;
          expires = Math.min(expires, now);
        }
        byId.put(
            id, new LeaseInfo(namespace, id, rec.instance(), "", state, expires, rec.highWater()));
      }
    }
    return new LeaseListing(now, List.copyOf(byId.values()), nsState);
  }

  @Override
  public void releaseAbandoned(String namespace, long nodeId) {
    String ns = ns(namespace);
    Trip trip = trip(operator, OPERATOR_BOUND_MILLIS, "releaseAbandoned");
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      Answer r =
          trip.multi(
              List.of(Op.getData(ns + "/held/" + nodeId), Op.getData(ns + "/ids/" + nodeId)));
      Stat hs = stat(r.results().get(0));
      Stat rs = stat(r.results().get(1));
      IdRecord rec = rs == null ? null : IdRecord.parse(data(r.results().get(1)));
      if (hs != null) {
        throw new LeaseTakenException(
            namespace,
            nodeId,
            "held by instance "
                + (rec == null ? "?" : rec.instance())
                + ": its ZooKeeper session 0x"
                + Long.toHexString(hs.getEphemeralOwner())
                + " lives (renewed "
                + Instant.ofEpochMilli(rs == null ? hs.getMtime() : rs.getMtime())
                + ", at least until "
                + Instant.ofEpochMilli(
                    (rs == null ? hs.getMtime() : rs.getMtime())
                        + (rec == null ? 0 : rec.timeoutMillis()))
                + " by the clock of "
                + describe()
                + ")");
      }
      if (rec == null || rec.released()) {
        return;
      }
      Answer w =
          trip.multi(
              List.of(
                  Op.setData(
                      ns + "/ids/" + nodeId,
                      rec.releasedWith(rec.highWater()).bytes(),
                      rs.getVersion()),
                  Op.setData(ns + "/written", EMPTY, -1),
                  Op.setData(path("written"), EMPTY, -1)));
      if (w.ok()) {
        LOG.log(
            Level.INFO,
            "node id {0} of namespace {1} on {2} released by an operator: its session had ended;"
                + " its high-water mark is kept",
            Long.toString(nodeId),
            namespace,
            describe());
        return;
      }
    }
    throw new RegistryUnavailableException(
        "node id "
            + nodeId
            + " of namespace "
            + namespace
            + " on "
            + describe()
            + " kept changing; try again");
  }

  /** The namespaces under the chroot: one {@code getChildren}. */
  @Override
  public List<String> namespaces() {
    Answer a =
        trip(operator, OPERATOR_BOUND_MILLIS, "namespaces")
            .multi(List.of(Op.getChildren(path("ns"))));
    OpResult r = a.results().get(0);
    return r instanceof OpResult.GetChildrenResult g ? List.copyOf(g.getChildren()) : List.of();
  }

  @Override
  public String describe() {
    return settings.describe();
  }

  /** Requests sent to ZooKeeper so far (a pipelined pair counts once); for measurements. */
  long roundTrips() {
    return roundTrips.get();
  }

  /** {@code getChildren} requests sent so far (scans: listings, a view's loads); for tests. */
  long listings() {
    return listings.get();
  }

  /** The view of a namespace's held ids on the default session, if open; for tests. */
  HeldView viewOf(String namespace) {
    return views.get(ZooKeeperLeaseProvider.DEFAULT_TTL.toMillis() + " " + ns(namespace));
  }

  /**
   * Closes every session without releasing: the ensemble deletes their ephemeral nodes at once, and
   * the records keep their high-water marks.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (HeldView v : views.values()) {
      v.close();
    }
    views.clear();
    for (Session s : sessions.values()) {
      s.close();
    }
    held.clear();
  }

  // ---- results ----

  private static Stat stat(OpResult r) {
    if (r instanceof OpResult.GetDataResult g) {
      return g.getStat();
    }
    if (r instanceof OpResult.SetDataResult s) {
      return s.getStat();
    }
    return null;
  }

  private static Stat anyStat(List<OpResult> results) {
    for (OpResult r : results) {
      Stat s = stat(r);
      if (s != null) {
        return s;
      }
    }
    return null;
  }

  private static byte[] data(OpResult r) {
    return r instanceof OpResult.GetDataResult g ? g.getData() : null;
  }

  private static long mtime(OpResult r) {
    Stat s = stat(r);
    return s == null ? NONE : s.getMtime();
  }

  /** The ids named by a getChildren's children; null if the parent does not exist. */
  private static Set<Long> ids(OpResult r) {
    if (!(r instanceof OpResult.GetChildrenResult g)) {
      return null;
    }
    Set<Long> out = new HashSet<>();
    for (String child : g.getChildren()) {
      Long id = id(child);
      if (id != null) {
        out.add(id);
      }
    }
    return out;
  }

  private static Long id(String s) {
    try {
      return Long.parseLong(s.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
