package io.snowid.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.ClientBuilder;
import io.etcd.jetcd.Response;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.common.exception.ErrorCode;
import io.etcd.jetcd.common.exception.EtcdException;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.lease.LeaseGrantResponse;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.WatchOption;
import io.grpc.ClientInterceptor;
import io.snowid.Durations;
import io.snowid.lease.RegistryUnavailableException;
import io.snowid.node.NodeIdUnavailableException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The etcd calls of one coordinator: each bounded in time, each failure classified (not answering
 * yet, or not to be fixed by waiting), and each answer's header checked against what this client
 * saw before (a revision that went back, another cluster id: docs/design.md, "The etcd://
 * backend").
 */
final class EtcdCalls implements AutoCloseable {
  private static final Duration CONNECT = Duration.ofSeconds(5);

  /** How long {@link #close()} lets revocations in flight finish. */
  private static final long CLOSE_WAIT_MILLIS = 1_000;

  private final EtcdSettings settings;
  private final List<ClientInterceptor> interceptors;
  private final Object lock = new Object();

  /**
   * The client the calls go out on (its own gRPC channel, hence its own TCP connection); replaced
   * when one of them found etcd silent or unreachable.
   */
  private volatile Client client;

  private boolean closed; // under lock
  private final AtomicLong calls = new AtomicLong();
  private final AtomicLong connectionsBuilt = new AtomicLong();
  private final Set<CompletableFuture<?>> revocations = ConcurrentHashMap.newKeySet();

  private final EtcdHistory history = new EtcdHistory();

  /**
   * A call's answer to come and the client it went out on, which {@link #await} replaces when the
   * call finds etcd silent or unreachable and nothing replaced it since.
   */
  private static final class Sent<T> extends CompletableFuture<T> {
    private final Client on;
    private final CompletableFuture<T> call;

    Sent(Client on, CompletableFuture<T> call) {
      this.on = on;
      this.call = call;
      call.whenComplete(
          (v, e) -> {
            if (e == null) {
              complete(v);
            } else {
              completeExceptionally(
                  e instanceof CompletionException && e.getCause() != null ? e.getCause() : e);
            }
          });
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      call.cancel(mayInterruptIfRunning);
      return super.cancel(mayInterruptIfRunning);
    }
  }

  EtcdCalls(EtcdSettings settings, List<ClientInterceptor> interceptors) {
    this.settings = settings;
    this.interceptors = List.copyOf(interceptors);
    this.client = connect();
  }

  private Client connect() {
    ClientBuilder b =
        Client.builder()
            .endpoints(settings.endpoints().toArray(String[]::new))
            .connectTimeout(CONNECT)
            // every call is bounded and retried by the caller's own rule: none by jetcd
            .retryMaxAttempts(0)
            // a call while disconnected fails at once instead of waiting to be sent later
            .waitForReady(false);
    if (settings.user() != null) {
      b.user(bytes(settings.user())).password(bytes(settings.password()));
    }
    if (!interceptors.isEmpty()) {
      b.interceptors(interceptors);
    }
    connectionsBuilt.incrementAndGet();
    return b.build();
  }

  /** Sends a call on the current client: {@code call} sends it on the client given. */
  private <T> Sent<T> send(Function<Client, CompletableFuture<T>> call) {
    calls.incrementAndGet();
    Client on = client;
    return new Sent<>(on, call.apply(on));
  }

  /**
   * The calls from now on go out on a new client, when {@code failedOn}, the one a call that found
   * etcd silent or unreachable went out on, is still the current one. A connection cut without a
   * reset keeps what it sent in the kernel's retransmission back-off, and a channel that failed to
   * connect in gRPC's reconnect back-off, each for seconds past the fault's end; a new client
   * connects at its first call (docs/design.md, "The etcd:// backend": a new connection after a
   * call etcd did not answer).
   */
  private void reconnect(Client failedOn) {
    Client silent;
    synchronized (lock) {
      silent = client;
      if (closed || silent != failedOn) {
        return; // replaced since the call was sent: the new one has not failed
      }
      client = connect();
    }
    try {
      silent.close(); // ends its calls in flight and its watches (their views break)
    } catch (RuntimeException e) {
      // replaced anyway
    }
  }

  /** Clients built so far, the first included; for tests. */
  long connections() {
    return connectionsBuilt.get();
  }

  static ByteSequence bytes(String s) {
    return ByteSequence.from(s, StandardCharsets.UTF_8);
  }

  static String text(ByteSequence b) {
    return b.toString(StandardCharsets.UTF_8);
  }

  /**
   * An answer; if its revision or cluster showed a registry that went back, that loss; and when
   * ({@link System#nanoTime()}) it arrived.
   */
  record Answer(TxnResponse txn, EtcdHistory.Loss wentBack, long answeredNanos) {}

  /** One transaction, within {@code boundMillis}. */
  Answer txn(String what, long boundMillis, List<Cmp> ifs, List<Op> then, List<Op> otherwise) {
    EtcdHistory.Sent sent = history.sent(); // its answer must be at least as new
    CompletableFuture<TxnResponse> f =
        send(
            c ->
                c.getKVClient()
                    .txn()
                    .If(ifs.toArray(Cmp[]::new))
                    .Then(then.toArray(Op[]::new))
                    .Else(otherwise.toArray(Op[]::new))
                    .commit());
    TxnResponse r = await(what, f, boundMillis);
    long at = System.nanoTime();
    Response.Header h = r.getHeader();
    return new Answer(r, history.answered(sent, h.getClusterId(), h.getRevision(), at), at);
  }

  /** A rollback this client saw and no write recorded yet (lostAt), or null. */
  EtcdHistory.Loss unrecordedLoss() {
    return history.unrecorded();
  }

  /** The loss is recorded in etcd now, or taken on from a record of it. */
  void lossRecorded(EtcdHistory.Loss loss) {
    history.recorded(loss);
  }

  /** The cluster id of the answers so far (0 before the first). */
  long clusterId() {
    return history.clusterId();
  }

  CompletableFuture<LeaseGrantResponse> grantAsync(long ttlSeconds) {
    return send(c -> c.getLeaseClient().grant(ttlSeconds));
  }

  /**
   * Watches the keys under {@code prefix} from {@code fromRevision} on, on a stream of its own that
   * fails when its member has no leader (the listener then hears of it), instead of going quiet.
   */
  Watch.Watcher watch(String prefix, long fromRevision, Watch.Listener listener) {
    return client
        .getWatchClient()
        .watch(
            bytes(prefix),
            WatchOption.builder()
                .isPrefix(true)
                .withRevision(fromRevision)
                .withCreateNotify(true)
                .withRequireLeader(true)
                .build(),
            listener);
  }

  CompletableFuture<LeaseKeepAliveResponse> keepAliveOnceAsync(long leaseId) {
    return send(c -> c.getLeaseClient().keepAliveOnce(leaseId));
  }

  /**
   * Revokes an etcd lease, which deletes its keys; without waiting (it expires anyway), but {@link
   * #close()} lets revocations in flight finish for a moment, so that closing does not cut them
   * (jetcd then logs each one as a failed retry).
   */
  void revokeQuietly(long leaseId) {
    try {
      CompletableFuture<?> revoking = client.getLeaseClient().revoke(leaseId);
      revocations.add(revoking);
      revoking.whenComplete((r, e) -> revocations.remove(revoking));
    } catch (RuntimeException e) {
      // it expires by itself
    }
  }

  /** Waits for a call sent before, within {@code boundMillis} of now. */
  <T> T await(String what, CompletableFuture<T> f, long boundMillis) {
    Client on = f instanceof Sent<?> sent ? sent.on : null;
    try {
      return f.get(boundMillis, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw failed(what, e.getCause() == null ? e : e.getCause(), on);
    } catch (TimeoutException e) {
      f.cancel(true);
      reconnect(on);
      throw new RegistryUnavailableException(
          "etcd at "
              + describe()
              + " did not answer the "
              + what
              + " within "
              + Durations.format(Duration.ofMillis(boundMillis)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      f.cancel(true);
      throw new NodeIdUnavailableException(what + " on " + describe() + " was interrupted");
    } catch (RuntimeException e) {
      throw failed(what, e, on);
    }
  }

  /** Requests sent so far (two sent together count two); for measurements. */
  long calls() {
    return calls.get();
  }

  /** A write named an etcd lease that etcd does not have (revoked, or expired): nothing written. */
  static final class LeaseGone extends NodeIdUnavailableException {
    private static final long serialVersionUID = 1L;

    LeaseGone(String message) {
      super(message);
    }
  }

  private NodeIdUnavailableException failed(String what, Throwable e, Client on) {
    String message =
        "the "
            + what
            + " on etcd at "
            + describe()
            + " failed: "
            + settings.scrub(String.valueOf(e.getMessage()))
            + causeOf(e);
    if (leaseNotFound(e)) {
      return new LeaseGone(message);
    }
    if (closedByReplacement(e, on)) {
      return new RegistryUnavailableException(message); // its connection was replaced meanwhile
    }
    if (!notAnswering(e)) {
      return new NodeIdUnavailableException(message);
    }
    if (connectionFailed(e)) {
      reconnect(on);
    }
    return new RegistryUnavailableException(message);
  }

  /**
   * Whether a call failed only because the client it went out on was closed for a new one (jetcd
   * refuses a call on a closed client, gRPC ends the calls of a channel shut down): not answered,
   * and the next try goes out on the new client. After {@link #close()} it is a failure.
   */
  private boolean closedByReplacement(Throwable e, Client on) {
    synchronized (lock) {
      if (closed || on == null || on == client) {
        return false;
      }
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      String m = String.valueOf(t.getMessage());
      if (t instanceof RejectedExecutionException || m.contains("Channel shutdown")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a failure came from the connection rather than from etcd: a gRPC {@code UNAVAILABLE}
   * without an answer of etcd's ({@code etcdserver: no leader}, {@code leader changed}, {@code
   * request timed out} come over a working connection, which a new one would not fix).
   */
  static boolean connectionFailed(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (String.valueOf(t.getMessage()).contains("etcdserver:")) {
        return false;
      }
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof EtcdException ee && ee.getErrorCode() == ErrorCode.UNAVAILABLE) {
        return true;
      }
      if (t instanceof io.grpc.StatusRuntimeException s
          && s.getStatus().getCode() == io.grpc.Status.Code.UNAVAILABLE) {
        return true;
      }
      if (t instanceof java.net.ConnectException
          || String.valueOf(t.getMessage()).contains("Connection refused")) {
        return true;
      }
    }
    return false;
  }

  private String causeOf(Throwable e) {
    Throwable cause = e.getCause();
    return cause == null || cause.getMessage() == null || cause.getMessage().equals(e.getMessage())
        ? ""
        : " (" + settings.scrub(cause.getMessage()) + ")";
  }

  private static boolean leaseNotFound(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (String.valueOf(t.getMessage()).contains("requested lease not found")) {
        return true;
      }
    }
    return false;
  }

  /**
   * A failure that may pass by itself: etcd unreachable (connection refused, no leader yet, a
   * deadline passed while connecting). An unknown host, a refused login or a bad request is not.
   */
  static boolean notAnswering(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String m = String.valueOf(t.getMessage());
      if (t instanceof java.net.UnknownHostException
          || m.contains("UnknownHost")
          || m.contains("Unable to resolve host")
          || m.contains("authentication failed")
          || m.contains("invalid user ID or password")
          || m.contains("authentication is not enabled")
          || m.contains("user name is empty")
          || m.contains("permission denied")) {
        return false;
      }
      if (t instanceof EtcdException ee
          && (ee.getErrorCode() == ErrorCode.UNAUTHENTICATED
              || ee.getErrorCode() == ErrorCode.PERMISSION_DENIED
              || ee.getErrorCode() == ErrorCode.INVALID_ARGUMENT)) {
        return false;
      }
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof EtcdException ee
          && (ee.getErrorCode() == ErrorCode.UNAVAILABLE
              || ee.getErrorCode() == ErrorCode.DEADLINE_EXCEEDED)) {
        return true;
      }
      if (t instanceof io.grpc.StatusRuntimeException s
          && (s.getStatus().getCode() == io.grpc.Status.Code.UNAVAILABLE
              || s.getStatus().getCode() == io.grpc.Status.Code.DEADLINE_EXCEEDED)) {
        return true;
      }
      String m = String.valueOf(t.getMessage());
      if (m.contains("no leader")
          || m.contains("leader changed")
          || m.contains("Connection refused")) {
        return true;
      }
    }
    return RegistryUnavailableException.notAnswering(e);
  }

  String describe() {
    return settings.describe();
  }

  @Override
  public void close() {
    try {
      CompletableFuture.allOf(revocations.toArray(CompletableFuture[]::new))
          .get(CLOSE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      // they expire by themselves
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    Client last;
    synchronized (lock) {
      closed = true;
      last = client;
    }
    try {
      last.close();
    } catch (RuntimeException e) {
      // closing anyway
    }
  }
}
