package io.snowid.etcd;

import io.etcd.jetcd.kv.TxnResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A coordinator's views ({@link EtcdView}), one per namespace it acquired in, and the revisions of
 * its own writes, which a view must have delivered before an acquisition judges on it. A view no
 * acquisition asked for in {@link #IDLE_NANOS} is closed: its watches carry every write of the
 * namespace and of the prefix, and without a recent spare lease it saves no round trip.
 */
final class EtcdViews implements AutoCloseable {
  static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(10);

  private final EtcdCalls etcd;
  private final Map<String, EtcdView> views = new ConcurrentHashMap<>();
  private final Map<String, Long> namespaceWrites = new ConcurrentHashMap<>();
  private final AtomicLong registryWrite = new AtomicLong();
  private volatile boolean closed;

  EtcdViews(EtcdCalls etcd) {
    this.etcd = etcd;
  }

  /**
   * The namespace's records as its view holds them, or null without a view that is live and has
   * this coordinator's own writes (waiting up to {@code waitMillis} for them).
   */
  EtcdRecords records(String namespace, EtcdKeys keys, long waitMillis) {
    EtcdView v = views.get(namespace);
    return v == null
        ? null
        : v.records(
            keys, namespaceWrites.getOrDefault(namespace, 0L), registryWrite.get(), waitMillis);
  }

  /** Starts a view of the namespace from a read of it ({@link EtcdKeys#readAll()}), unless live. */
  void seed(String namespace, EtcdKeys keys, TxnResponse read) {
    if (closed) {
      return;
    }
    EtcdView current = views.get(namespace);
    if (current != null && current.live()) {
      current.touch();
      return;
    }
    EtcdView started = new EtcdView(read);
    boolean replaced =
        current == null
            ? views.putIfAbsent(namespace, started) == null
            : views.replace(namespace, current, started);
    if (!replaced) {
      return; // another acquisition started one
    }
    if (current != null) {
      current.close();
    }
    started.watch(etcd, keys);
    if (closed) {
      started.close();
    }
  }

  /** This coordinator wrote the namespace's keys and the registry's at {@code revision}. */
  void wrote(String namespace, long revision) {
    namespaceWrites.merge(namespace, revision, Math::max);
    registryWrite.accumulateAndGet(revision, Math::max);
  }

  /** This coordinator took an id of the namespace: the prefix remembers creating it. */
  void created(String namespace) {
    EtcdView v = views.get(namespace);
    if (v != null) {
      v.remember();
    }
  }

  /** Closes the views that are broken or idle. */
  void sweep() {
    long now = System.nanoTime();
    for (Map.Entry<String, EtcdView> e : List.copyOf(views.entrySet())) {
      EtcdView v = e.getValue();
      if ((!v.live() || now - v.usedNanos() > IDLE_NANOS) && views.remove(e.getKey(), v)) {
        v.close();
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    for (String namespace : List.copyOf(views.keySet())) {
      EtcdView v = views.remove(namespace);
      if (v != null) {
        v.close();
      }
    }
  }
}
