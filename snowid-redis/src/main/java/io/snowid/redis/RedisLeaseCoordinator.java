package io.snowid.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisLoadingException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import io.snowid.Durations;
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
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Leases node ids on Redis: one Lua script per acquisition, renewal and release, judged by Redis's
 * own clock ({@code TIME} inside the script).
 *
 * <p>Longer than ~500 lines because each call's arguments and each of its replies, with their
 * messages, sit beside the one Lua script they belong to ({@code io/snowid/redis/*.lua}); the rules
 * are in the scripts and in docs/design.md, section "The {@code redis://} backend".
 */
final class RedisLeaseCoordinator implements LeaseCoordinator {
  /*
   * The rationale is docs/design.md, section 4, "The redis:// backend": the keys (one hash tag per
   * prefix, so one slot), one EVALSHA per call judged by Redis's TIME, high-water marks and when
   * the keys expire, the loss rule, what Redis cannot promise, and each call's time bound.
   */
  private static final System.Logger LOG = System.getLogger("io.snowid.redis");

  /**
   * The most ids a namespace may have: the acquire script counts them in Lua's numbers, doubles,
   * exact up to 2^53.
   */
  static final long MAX_SIZE = 1L << 53;

  private static final long MIN_BOUND_MILLIS = 100;
  private static final Pattern NAMESPACE = Pattern.compile("[A-Za-z0-9._:-]{1,500}");

  private final RedisSettings settings;
  private final ClientResources resources; // null: the application's client, not ours to shut down
  private final RedisClient client; // null: as resources
  private final StatefulRedisConnection<String, String> connection;
  private final RedisAsyncCommands<String, String> redis;
  private final AtomicLong roundTrips = new AtomicLong();
  private volatile boolean closed;

  private RedisLeaseCoordinator(
      RedisSettings settings,
      ClientResources resources,
      RedisClient client,
      StatefulRedisConnection<String, String> connection) {
    this.settings = settings;
    this.resources = resources;
    this.client = client;
    this.connection = connection;
    this.redis = connection.async();
  }

  /**
   * Connects to the Redis of a URI (without snowid's lease options).
   *
   * @throws InvalidSettingException if the URI is malformed
   * @throws NodeIdUnavailableException if Redis cannot be reached
   */
  static RedisLeaseCoordinator open(String uri) {
    RedisSettings settings = RedisSettings.parse(uri);
    ClientResources resources =
        DefaultClientResources.builder()
            .ioThreadPoolSize(2)
            .computationThreadPoolSize(2)
            .reconnectDelay(
                Delay.exponential(
                    Duration.ofMillis(20), Duration.ofSeconds(1), 2, TimeUnit.MILLISECONDS))
            .build();
    RedisClient client = RedisClient.create(resources, settings.redisUri());
    client.setOptions(
        ClientOptions.builder()
            .autoReconnect(true)
            .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
            .socketOptions(
                SocketOptions.builder()
                    .connectTimeout(Duration.ofSeconds(5))
                    .keepAlive(true)
                    .build())
            .build());
    StatefulRedisConnection<String, String> connection;
    try {
      connection = client.connect();
    } catch (RuntimeException e) {
      shutdown(client, resources);
      String message =
          "Redis at "
              + settings.describe()
              + " cannot be reached: "
              + settings.scrub(String.valueOf(e.getMessage()))
              + causeOf(e, settings);
      throw notAnswering(e)
          ? new RegistryUnavailableException(message)
          : new NodeIdUnavailableException(message);
    }
    RedisLeaseCoordinator c = new RedisLeaseCoordinator(settings, resources, client, connection);
    c.warnAboutDurability();
    return c;
  }

  /**
   * A coordinator on an application's own client: one connection of its own on it, closed by {@link
   * #close()}; the client is left as it was.
   *
   * @param options {@code prefix=NAME&wait=N}, both optional
   * @throws InvalidSettingException for an unknown or malformed option
   * @throws NodeIdUnavailableException if Redis cannot be reached
   */
  static RedisLeaseCoordinator open(RedisClient client, String options) {
    if (client == null) {
      throw new InvalidSettingException("redisClient", null, "a Lettuce RedisClient");
    }
    RedisSettings settings = RedisSettings.forClient(options);
    StatefulRedisConnection<String, String> connection;
    try {
      connection = client.connect();
    } catch (RuntimeException e) {
      String message =
          settings.describe()
              + " cannot be reached: "
              + settings.scrub(e.getMessage())
              + causeOf(e, settings);
      throw notAnswering(e)
          ? new RegistryUnavailableException(message)
          : new NodeIdUnavailableException(message);
    }
    RedisLeaseCoordinator c = new RedisLeaseCoordinator(settings, null, null, connection);
    c.warnAboutDurability();
    return c;
  }

  private static String causeOf(Throwable e, RedisSettings settings) {
    Throwable cause = e.getCause();
    return cause == null || cause.getMessage() == null
        ? ""
        : " (" + settings.scrub(cause.getMessage()) + ")";
  }

  /** Warns when the server may evict lease keys, or has replicas that a grant does not wait for. */
  private void warnAboutDurability() {
    String info;
    try {
      info = redis.info().get(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
      return; // INFO may be disabled (managed Redis): nothing to warn about then
    }
    String policy = infoField(info, "maxmemory_policy");
    String maxmemory = infoField(info, "maxmemory");
    if (policy != null && !policy.equals("noeviction") && !"0".equals(maxmemory)) {
      LOG.log(
          Level.WARNING,
          "Redis at {0} has maxmemory-policy {1}: under memory pressure it may evict lease keys,"
              + " and an evicted lease can be handed out twice; use noeviction",
          describe(),
          policy);
    }
    String replicas = infoField(info, "connected_slaves");
    if (settings.waitReplicas() == 0 && replicas != null && !replicas.equals("0")) {
      LOG.log(
          Level.INFO,
          "Redis at {0} has {1} replica(s) and leases do not wait for them (wait=0): after a"
              + " failover a grant may be lost (docs/fleet.md, \"On Redis\")",
          describe(),
          replicas);
    }
  }

  private static String infoField(String info, String name) {
    Matcher m = Pattern.compile("(?m)^" + name + ":(\\S*)").matcher(info);
    return m.find() ? m.group(1) : null;
  }

  private String[] keys(String namespace) {
    if (!NAMESPACE.matcher(namespace).matches()) {
      throw new InvalidSettingException("namespace", namespace, "1 to 500 of A-Z a-z 0-9 . _ : -");
    }
    String tag = "{" + settings.prefix() + "}:";
    String ns = tag + namespace + ":";
    return new String[] {ns + "ids", ns + "held", ns + "last", ns + "state", tag + "registry"};
  }

  @Override
  public Lease acquire(AcquireRequest request) {
    if (request.size() > MAX_SIZE) {
      throw new InvalidSettingException(
          "node bits",
          Long.numberOfTrailingZeros(request.size()),
          "at most 53 node bits together on Redis (its scripts count ids in doubles)");
    }
    LeaseTerms terms = request.terms();
    long ttl = terms.ttl().toMillis();
    String token = UUID.randomUUID().toString();
    Reply r =
        run(
            LeaseScript.ACQUIRE,
            keys(request.namespace()),
            ttl / 2,
            true,
            Long.toString(request.size()),
            Long.toString(request.mask()),
            Long.toString(request.match()),
            request.instance(),
            token,
            Long.toString(ttl),
            Long.toString(terms.mayIssueUntilMillis()),
            Long.toString(request.limits().maxTtl().toMillis()),
            Long.toString(request.limits().maxSkew().toMillis()),
            Long.toString(LeaseLimits.SLACK.toMillis()),
            request.namespace());
    if (r.status().equals("full")) {
      throw new NodeIdUnavailableException(
          "all "
              + request.count()
              + " node ids of namespace "
              + request.namespace()
              + allowedBy(request)
              + " on "
              + describe()
              + " are held ("
              + r.text(1)
              + " live leases)");
    }
    if (r.status().equals("terms")) {
      throw new LeaseTermsException(
          request.namespace(),
          describe(),
          new LeaseLimits(Duration.ofMillis(r.number(1)), Duration.ofMillis(r.number(2))),
          r.number(3),
          request.limits());
    }
    r.expect("ok");
    String loss = r.text(5);
    String startReason =
        loss.isEmpty()
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
    Lease lease =
        new Lease(
            request.namespace(),
            r.number(1),
            request.instance(),
            token,
            r.number(2),
            r.number(3),
            r.number(4),
            startReason);
    if (r.acks() < settings.waitReplicas()) {
      releaseQuietly(lease);
      throw r.notReplicated("grant of node id " + lease.nodeId());
    }
    return lease;
  }

  /** Which ids a request with fixed bits may take, for messages; "" when it may take any. */
  static String allowedBy(AcquireRequest request) {
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

  private void releaseQuietly(Lease lease) {
    try {
      release(lease, Long.MIN_VALUE);
    } catch (RuntimeException e) {
      // it expires by itself
    }
  }

  @Override
  public Lease renew(Lease lease, LeaseTerms terms) {
    long ttl = terms.ttl().toMillis();
    Reply r =
        run(
            LeaseScript.RENEW,
            keys(lease.namespace()),
            ttl / 3,
            true,
            Long.toString(lease.nodeId()),
            lease.token(),
            Long.toString(ttl),
            Long.toString(terms.mayIssueUntilMillis()),
            Long.toString(lease.expiresAtMillis()),
            Long.toString(LeaseLimits.SLACK.toMillis()),
            Long.toString(lease.coordinatorNowMillis()),
            Long.toString(LeaseLimits.DEFAULT.maxSkew().toMillis()));
    switch (r.status()) {
      case "rolledback" ->
          throw new LeaseTakenException(
              lease.namespace(),
              lease.nodeId(),
              "its record on "
                  + describe()
                  + " went back to an older state (expiry "
                  + Instant.ofEpochMilli(r.number(1))
                  + ", this holder had renewed it until "
                  + Instant.ofEpochMilli(lease.expiresAtMillis())
                  + "): Redis restarted from an older snapshot or failed over to a replica behind"
                  + " it; newcomers start after "
                  + Instant.ofEpochMilli(r.number(2)));
      case "lost" ->
          throw new LeaseTakenException(
              lease.namespace(),
              lease.nodeId(),
              describe()
                  + " has no state for the namespace: Redis restarted empty or was flushed"
                  + r.text(1));
      case "gone" ->
          throw new LeaseTakenException(
              lease.namespace(),
              lease.nodeId(),
              "its record is gone from " + describe() + r.text(1));
      case "taken" -> throw new LeaseTakenException(lease.namespace(), lease.nodeId(), r.text(1));
      default -> r.expect("ok");
    }
    if (r.acks() < settings.waitReplicas()) {
      throw r.notReplicated("renewal of node id " + lease.nodeId());
    }
    return new Lease(
        lease.namespace(),
        lease.nodeId(),
        lease.instance(),
        lease.token(),
        r.number(1),
        r.number(2),
        lease.highWaterMillis());
  }

  @Override
  public void release(Lease lease, long issuedUpToMillis) {
    long granted = lease.expiresAtMillis() - lease.coordinatorNowMillis();
    run(
        LeaseScript.RELEASE,
        keys(lease.namespace()),
        granted / 3,
        false,
        Long.toString(lease.nodeId()),
        lease.token(),
        issuedUpToMillis == Long.MIN_VALUE ? "-" : Long.toString(issuedUpToMillis));
  }

  /** How long an operator's call may take: no lease bounds it. */
  private static final long OPERATOR_BOUND_MILLIS = 5_000;

  @Override
  public LeaseListing list(String namespace) {
    Reply r = run(LeaseScript.LIST, keys(namespace), OPERATOR_BOUND_MILLIS, false);
    long now = r.number(0);
    TreeMap<Long, LeaseInfo> byId = new TreeMap<>();
    Optional<NamespaceState> namespaceState = Optional.empty();
    if (!r.text(1).equals("-") && !r.text(2).equals("-") && !r.text(3).equals("-")) {
      namespaceState =
          Optional.of(
              new NamespaceState(
                  new LeaseLimits(
                      Duration.ofMillis(number(r.text(1), r)),
                      Duration.ofMillis(number(r.text(2), r))),
                  number(r.text(3), r),
                  number(r.text(4), r)));
    }
    for (int i = 5; i + 1 < r.size(); i += 2) {
      long id;
      try {
        id = Long.parseLong(r.text(i));
      } catch (NumberFormatException e) {
        throw r.malformed();
      }
      String[] f = r.text(i + 1).split(" ");
      if (f.length != 5) {
        throw r.malformed();
      }
      boolean released = f[1].equals("-");
      long expires = released ? Long.MIN_VALUE : number(f[2], r);
      LeaseInfo.State state =
          released
              ? LeaseInfo.State.RELEASED
              : expires <= now ? LeaseInfo.State.EXPIRED : LeaseInfo.State.HELD;
      byId.put(id, new LeaseInfo(namespace, id, f[0], "", state, expires, number(f[3], r)));
    }
    return new LeaseListing(now, List.copyOf(byId.values()), namespaceState);
  }

  /**
   * The namespaces of this prefix, by a SCAN for their {@code ids} hashes (a few round trips of up
   * to 1,000 keys each, over the whole key space: only at a holder's start and for operators).
   */
  @Override
  public List<String> namespaces() {
    String tag = "{" + settings.prefix() + "}:";
    List<String> out = new java.util.ArrayList<>();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(OPERATOR_BOUND_MILLIS);
    io.lettuce.core.ScanCursor cursor = io.lettuce.core.ScanCursor.INITIAL;
    io.lettuce.core.ScanArgs args =
        io.lettuce.core.ScanArgs.Builder.matches(tag + "*:ids").limit(1000);
    do {
      roundTrips.incrementAndGet();
      io.lettuce.core.KeyScanCursor<String> page;
      try {
        page =
            redis
                .scan(cursor, args)
                .get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new NodeIdUnavailableException(
            "listing the namespaces of " + describe() + " was interrupted");
      } catch (ExecutionException | RuntimeException e) {
        Throwable cause =
            e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        String message =
            "cannot list the namespaces of "
                + describe()
                + ": "
                + settings.scrub(String.valueOf(cause.getMessage()));
        throw notAnswering(cause)
            ? new RegistryUnavailableException(message)
            : new NodeIdUnavailableException(message);
      } catch (java.util.concurrent.TimeoutException e) {
        throw new NodeIdUnavailableException(
            "listing the namespaces of "
                + describe()
                + " took longer than "
                + OPERATOR_BOUND_MILLIS
                + " ms");
      }
      for (String key : page.getKeys()) {
        out.add(key.substring(tag.length(), key.length() - ":ids".length()));
      }
      cursor = page;
    } while (!cursor.isFinished());
    return out;
  }

  /** A number field of a record; "-" (none) is {@link Long#MIN_VALUE}. */
  private static long number(String s, Reply r) {
    if (s.equals("-")) {
      return Long.MIN_VALUE;
    }
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      throw r.malformed();
    }
  }

  @Override
  public void releaseAbandoned(String namespace, long nodeId) {
    Reply r =
        run(
            LeaseScript.ABANDON,
            keys(namespace),
            OPERATOR_BOUND_MILLIS,
            false,
            Long.toString(nodeId));
    switch (r.status()) {
      case "alive" ->
          throw new LeaseTakenException(
              namespace,
              nodeId,
              "held by instance "
                  + r.text(1)
                  + " until "
                  + Instant.ofEpochMilli(r.number(2))
                  + " by the clock of "
                  + describe());
      case "ok" ->
          LOG.log(
              Level.INFO,
              "node id {0} of namespace {1} on {2} released by an operator: its lease had expired;"
                  + " its high-water mark is kept",
              Long.toString(nodeId),
              namespace,
              describe());
      default -> r.expect("none");
    }
  }

  @Override
  public String describe() {
    return settings.describe();
  }

  /** Round trips to Redis so far (a pipelined script and WAIT count as one); for measurements. */
  long roundTrips() {
    return roundTrips.get();
  }

  /**
   * Closes the connection without releasing anything: leases still held expire by themselves. A
   * client of this coordinator's own is shut down too; an application's is left open.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      connection.close();
    } catch (RuntimeException e) {
      // closing anyway
    }
    if (client != null) {
      shutdown(client, resources);
    }
  }

  private static void shutdown(RedisClient client, ClientResources resources) {
    try {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    } catch (RuntimeException e) {
      // closing anyway
    }
    try {
      resources.shutdown(0, 2, TimeUnit.SECONDS).get(3, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
      // closing anyway: its threads end by themselves
    }
  }

  /** One script call: its answer and, with wait=N, how many replicas acknowledged it. */
  private final class Reply {
    private final LeaseScript script;
    private final List<Object> values;
    private final long acks;

    Reply(LeaseScript script, List<Object> values, long acks) {
      this.script = script;
      this.values = values;
      this.acks = acks;
    }

    String status() {
      return text(0);
    }

    int size() {
      return values == null ? 0 : values.size();
    }

    long acks() {
      return acks;
    }

    String text(int i) {
      if (values == null || values.size() <= i) {
        throw malformed();
      }
      Object v = values.get(i);
      return v instanceof byte[] b
          ? new String(b, java.nio.charset.StandardCharsets.UTF_8)
          : String.valueOf(v);
    }

    /** A number field; "-" (none) is {@link Long#MIN_VALUE}. */
    long number(int i) {
      String s = text(i);
      if (s.equals("-")) {
        return Long.MIN_VALUE;
      }
      try {
        return Long.parseLong(s);
      } catch (NumberFormatException e) {
        throw malformed();
      }
    }

    void expect(String status) {
      if (!status().equals(status)) {
        throw malformed();
      }
    }

    NodeIdUnavailableException malformed() {
      return new NodeIdUnavailableException(
          "unexpected answer of the "
              + script.name()
              + " script from "
              + describe()
              + ": "
              + values);
    }

    NodeIdUnavailableException notReplicated(String what) {
      return new NodeIdUnavailableException(
          what
              + " on "
              + describe()
              + " was acknowledged by "
              + Math.max(0, acks)
              + " of the "
              + settings.waitReplicas()
              + " replicas it waits for (wait="
              + settings.waitReplicas()
              + "); it does not count");
    }
  }

  /**
   * Runs a script (EVALSHA, then EVAL after NOSCRIPT) and, if {@code replicated} and wait=N, a WAIT
   * pipelined behind it; all within {@code boundMillis}.
   */
  private Reply run(
      LeaseScript script, String[] keys, long boundMillis, boolean replicated, String... args) {
    if (closed) {
      throw new NodeIdUnavailableException("the coordinator of " + describe() + " is closed");
    }
    long bound = Math.max(MIN_BOUND_MILLIS, boundMillis);
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(bound);
    int wait = replicated ? settings.waitReplicas() : 0;
    for (boolean sendText = false; ; sendText = true) {
      roundTrips.incrementAndGet();
      RedisFuture<List<Object>> call;
      RedisFuture<Long> acks = null;
      try {
        call =
            sendText
                ? redis.eval(script.text(), ScriptOutputType.MULTI, keys, args)
                : redis.evalsha(script.sha(), ScriptOutputType.MULTI, keys, args);
        if (wait > 0) {
          // answers by 3/4 of the bound at the latest, leaving time for the answer to arrive
          acks = redis.waitForReplication(wait, Math.max(1, bound * 3 / 4));
        }
      } catch (RuntimeException e) {
        throw unavailable(script, e);
      }
      try {
        List<Object> values = await(call, deadline, script, bound);
        long acked = acks == null ? Long.MAX_VALUE : awaitAcks(acks, deadline);
        return new Reply(script, values, acked);
      } catch (RedisNoScriptException e) {
        if (sendText) {
          throw unavailable(script, e);
        }
        // the server forgot the script (restart, flush, failover): send it with the next call
      }
    }
  }

  private <T> T await(RedisFuture<T> f, long deadline, LeaseScript script, long bound) {
    try {
      return f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (cause instanceof RedisNoScriptException noScript) {
        throw noScript;
      }
      throw unavailable(script, cause);
    } catch (TimeoutException e) {
      f.cancel(true);
      throw new RegistryUnavailableException(
          "Redis at "
              + describe()
              + " did not answer "
              + script.name()
              + " within "
              + Durations.format(Duration.ofMillis(bound)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      f.cancel(true);
      throw new NodeIdUnavailableException(
          script.name() + " on " + describe() + " was interrupted");
    }
  }

  /** How many replicas acknowledged; 0 if the WAIT did not answer in time or failed. */
  private static long awaitAcks(RedisFuture<Long> acks, long deadline) {
    try {
      Long n = acks.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      return n == null ? 0 : n;
    } catch (ExecutionException | TimeoutException e) {
      acks.cancel(true);
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      acks.cancel(true);
      return 0;
    }
  }

  private NodeIdUnavailableException unavailable(LeaseScript script, Throwable e) {
    String message =
        script.name()
            + " on Redis at "
            + describe()
            + " failed: "
            + settings.scrub(String.valueOf(e.getMessage()));
    return notAnswering(e)
        ? new RegistryUnavailableException(message)
        : new NodeIdUnavailableException(message);
  }

  /**
   * A failure that may pass by itself: no connection (refused, timed out, closed, commands rejected
   * while disconnected) or a server still loading its data.
   */
  static boolean notAnswering(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String m = String.valueOf(t.getMessage());
      if (t instanceof java.net.UnknownHostException
          || t instanceof javax.net.ssl.SSLException
          || m.contains("Invalid first byte")
          || m.startsWith("WRONGPASS")
          || m.startsWith("NOAUTH")
          || m.contains("invalid password")) {
        return false; // fails at once: waiting does not fix a name, a password or a protocol
      }
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      String m = String.valueOf(t.getMessage());
      if (t instanceof RedisLoadingException
          || t instanceof io.lettuce.core.RedisCommandTimeoutException // a server that is silent
          || m.startsWith("LOADING")
          || m.contains("not connected")
          || m.contains("Connection closed")) {
        return true;
      }
    }
    return RegistryUnavailableException.notAnswering(e);
  }
}
