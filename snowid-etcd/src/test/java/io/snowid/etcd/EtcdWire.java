package io.snowid.etcd;

import io.etcd.jetcd.api.Event;
import io.etcd.jetcd.api.LeaseGrantResponse;
import io.etcd.jetcd.api.LeaseRevokeRequest;
import io.etcd.jetcd.api.TxnRequest;
import io.etcd.jetcd.api.WatchResponse;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * What a coordinator's etcd client sends and receives, seen on the wire (a gRPC interceptor on its
 * channel: every request of jetcd passes it): a log of the calls started and answered, the etcd
 * leases granted, and a gate that holds back what the watches deliver, so that a test can write
 * behind a view's back. Not a stand-in for etcd: the calls go to the real server.
 */
final class EtcdWire implements ClientInterceptor {
  /** One entry of the log: a call started, or its first answer received. */
  record Entry(String method, boolean answer, String detail) {
    @Override
    public String toString() {
      return (answer ? "answered " : "sent ") + method + (detail.isEmpty() ? "" : " " + detail);
    }
  }

  private final List<Entry> log = new CopyOnWriteArrayList<>();
  private final List<Long> granted = new CopyOnWriteArrayList<>();
  private final List<Stream<?>> watches = new CopyOnWriteArrayList<>();
  private volatile boolean gated;

  @Override
  public <Q, R> ClientCall<Q, R> interceptCall(
      MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
    String name = method.getFullMethodName().replace("etcdserverpb.", "");
    return new Call<>(name, next.newCall(method, options));
  }

  /**
   * The log from entry {@code from} on: a copy of the whole log first, since a view of a list that
   * grows meanwhile (a keep-alive answered) fails.
   */
  List<Entry> since(int from) {
    List<Entry> all = List.copyOf(log);
    return all.subList(from, all.size());
  }

  int size() {
    return log.size();
  }

  /** The etcd leases granted so far, in the order of the answers. */
  List<Long> granted() {
    return List.copyOf(granted);
  }

  /** Waits until {@code count} grants were answered. */
  void awaitGrants(int count) throws InterruptedException {
    await(() -> granted.size() >= count, "grants answered: " + granted);
  }

  /**
   * Waits until at least {@code streams} watches have delivered an event at {@code revision} or
   * later.
   */
  void awaitWatched(int streams, long revision) throws InterruptedException {
    await(
        () -> watches.stream().filter(w -> w.delivered >= revision).count() >= streams,
        "watches at revision " + revision);
  }

  /** From now on, what the watches receive is held back until {@link #open()}. */
  void close() {
    gated = true;
  }

  /** Delivers what was held back, in order, and lets the watches run again. */
  void open() {
    gated = false;
    for (Stream<?> w : watches) {
      w.drain();
    }
  }

  private static void await(java.util.function.BooleanSupplier done, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 20 s: " + what);
      }
      Thread.sleep(5);
    }
  }

  private final class Call<Q, R> extends ForwardingClientCall.SimpleForwardingClientCall<Q, R> {
    private final String name;

    Call(String name, ClientCall<Q, R> delegate) {
      super(delegate);
      this.name = name;
    }

    @Override
    public void start(Listener<R> listener, Metadata headers) {
      if (name.equals("Watch/Watch")) {
        Stream<R> s = new Stream<>(listener);
        watches.add(s);
        super.start(s, headers);
      } else {
        super.start(new Answers<>(name, listener), headers);
      }
    }

    @Override
    public void sendMessage(Q message) {
      if (!name.equals("Watch/Watch")) {
        log.add(new Entry(name, false, detail(message)));
      }
      super.sendMessage(message);
    }
  }

  private static String detail(Object message) {
    if (message instanceof TxnRequest t) {
      return t.getCompareCount() == 0 ? "(a read)" : "(" + t.getCompareCount() + " compares)";
    }
    if (message instanceof LeaseRevokeRequest r) {
      return Long.toString(r.getID());
    }
    return "";
  }

  private final class Answers<R>
      extends ForwardingClientCallListener.SimpleForwardingClientCallListener<R> {
    private final String name;

    Answers(String name, ClientCall.Listener<R> delegate) {
      super(delegate);
      this.name = name;
    }

    @Override
    public void onMessage(R message) {
      if (message instanceof LeaseGrantResponse g) {
        granted.add(g.getID());
      }
      log.add(new Entry(name, true, ""));
      super.onMessage(message);
    }
  }

  /** A watch stream: what it delivers, held back while the wire is closed. */
  private final class Stream<R>
      extends ForwardingClientCallListener.SimpleForwardingClientCallListener<R> {
    private final Queue<R> held = new ArrayDeque<>();
    private volatile long delivered;

    Stream(ClientCall.Listener<R> delegate) {
      super(delegate);
      log.add(new Entry("Watch/Watch", false, "(a watch)"));
    }

    @Override
    public synchronized void onMessage(R message) {
      if (gated) {
        held.add(message);
        return;
      }
      drain();
      deliver(message);
    }

    synchronized void drain() {
      for (R m = held.poll(); m != null; m = held.poll()) {
        deliver(m);
      }
    }

    private void deliver(R message) {
      if (message instanceof WatchResponse w) {
        for (Event e : w.getEventsList()) {
          delivered = Math.max(delivered, e.getKv().getModRevision());
        }
      }
      super.onMessage(message);
    }

    @Override
    public synchronized void onClose(Status status, Metadata trailers) {
      drain();
      super.onClose(status, trailers);
    }
  }

  /** The entries whose method is {@code method}. */
  static List<Entry> of(List<Entry> entries, String method) {
    List<Entry> out = new ArrayList<>();
    for (Entry e : entries) {
      if (e.method().equals(method)) {
        out.add(e);
      }
    }
    return out;
  }
}
