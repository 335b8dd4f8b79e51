package io.snowid.etcd;

import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One namespace's keys and the registry's as this coordinator last heard of them, without reading
 * them: a read, then what two watches (the namespace's keys, the registry's) report from the read's
 * revision on. An acquisition judges on it and sends one transaction that compares what it judged
 * (docs/design.md, "The etcd:// backend"): a late view costs a retry, never a wrong lease. A view
 * whose watch ended (an error, a cancellation, a compaction, a member without a leader) is broken
 * for good: the next acquisition reads and starts another.
 */
final class EtcdView {
  private final Map<String, KeyValue> namespaceKeys = new HashMap<>();
  private final Map<String, KeyValue> registryKeys = new HashMap<>();
  private final List<Watch.Watcher> watchers = new CopyOnWriteArrayList<>();
  private final long base;

  /**
   * Whether {@code P/created/NS} exists, which no watch follows: as the read found it, then true
   * once this coordinator's acquisition wrote it. A transaction judged on the view compares it.
   */
  private boolean remembered;

  private long namespaceSeen; // the newest revision each watch delivered
  private long registrySeen;
  private int confirmed; // watches etcd confirmed
  private boolean broken;
  private volatile long usedNanos = System.nanoTime();

  /** A view of what {@code read} ({@link EtcdKeys#readAll()}, in one transaction) found. */
  EtcdView(TxnResponse read) {
    base = read.getHeader().getRevision();
    namespaceSeen = base;
    registrySeen = base;
    for (KeyValue kv : read.getGetResponses().get(0).getKvs()) {
      namespaceKeys.put(EtcdCalls.text(kv.getKey()), kv);
    }
    for (KeyValue kv : read.getGetResponses().get(1).getKvs()) {
      registryKeys.put(EtcdCalls.text(kv.getKey()), kv);
    }
    remembered = !read.getGetResponses().get(2).getKvs().isEmpty();
  }

  /** Starts the two watches, from the revision after the read's. */
  void watch(EtcdCalls etcd, EtcdKeys keys) {
    try {
      watchers.add(etcd.watch(keys.namespaceRoot, base + 1, listener(true)));
      watchers.add(etcd.watch(keys.registryRoot, base + 1, listener(false)));
    } catch (RuntimeException e) {
      broke();
    }
  }

  private Watch.Listener listener(boolean namespace) {
    return Watch.listener(r -> changed(namespace, r), e -> broke(), this::broke);
  }

  private synchronized void changed(boolean namespace, WatchResponse r) {
    if (broken) {
      return;
    }
    if (r.isCreatedNotify()) {
      confirmed++;
      notifyAll();
      return;
    }
    Map<String, KeyValue> keys = namespace ? namespaceKeys : registryKeys;
    long seen = namespace ? namespaceSeen : registrySeen;
    for (WatchEvent e : r.getEvents()) {
      KeyValue kv = e.getKeyValue();
      String key = EtcdCalls.text(kv.getKey());
      if (e.getEventType() == WatchEvent.EventType.PUT) {
        keys.put(key, kv);
      } else if (e.getEventType() == WatchEvent.EventType.DELETE) {
        keys.remove(key);
      } else {
        broken = true;
      }
      seen = Math.max(seen, kv.getModRevision());
    }
    if (namespace) {
      namespaceSeen = seen;
    } else {
      registrySeen = seen;
    }
    notifyAll();
  }

  private synchronized void broke() {
    broken = true;
    notifyAll();
  }

  /**
   * The keys, once both watches are confirmed and have delivered this coordinator's own last writes
   * (revisions {@code namespaceWrite} and {@code registryWrite}); waits up to {@code waitMillis}
   * for that, and returns null without it, or if the view is broken.
   */
  synchronized EtcdRecords records(
      EtcdKeys keys, long namespaceWrite, long registryWrite, long waitMillis) {
    usedNanos = System.nanoTime();
    long end = usedNanos + waitMillis * 1_000_000;
    while (!broken
        && (confirmed < 2 || namespaceSeen < namespaceWrite || registrySeen < registryWrite)) {
      long left = (end - System.nanoTime()) / 1_000_000;
      if (left <= 0) {
        return null;
      }
      try {
        wait(left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
    }
    if (broken) {
      return null;
    }
    return new EtcdRecords(
        keys, List.copyOf(namespaceKeys.values()), List.copyOf(registryKeys.values()), remembered);
  }

  /** This coordinator's acquisition took an id: {@code P/created/NS} exists. */
  synchronized void remember() {
    remembered = true;
  }

  synchronized boolean live() {
    return !broken;
  }

  /** When an acquisition last asked for it ({@link System#nanoTime()}). */
  long usedNanos() {
    return usedNanos;
  }

  void touch() {
    usedNanos = System.nanoTime();
  }

  /** Ends its watches; never under its own lock (jetcd calls the listener under jetcd's). */
  void close() {
    broke();
    for (Watch.Watcher w : watchers) {
      try {
        w.close();
      } catch (RuntimeException e) {
        // closing anyway
      }
    }
  }
}
