package io.snowid.zookeeper;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * The ids held in one namespace ({@code ns/NS/held}'s children) as one session's handle last saw
 * them: listed once, then kept by a persistent recursive watch (a created or deleted child is one
 * event). An acquisition picks its candidate here instead of listing; it uses the view only when
 * the {@code held} node's creation zxid and child version that it read itself match the view's
 * (docs/design.md, "The {@code zookeeper://} backend"). Nothing here is trusted for safety: the
 * acquisition's transaction checks the id it takes.
 */
final class HeldView implements Watcher, AutoCloseable {
  /** The held ids at one version of the {@code held} node. */
  record Snapshot(Set<Long> ids, long czxid, int cversion) {
    /** Whether this is the {@code held} node a read found: same node, same children. */
    boolean matches(Stat held) {
      return held != null && held.getCzxid() == czxid && held.getCversion() == cversion;
    }
  }

  private final ZooKeeper zk;
  private final String path;
  private final AtomicLong listings;

  // guarded by this; events and listings are applied on the handle's event thread
  private final Set<Long> ids = new HashSet<>();
  private long czxid;
  private int cversion;
  private boolean ready;
  private boolean closed;
  private boolean loading;

  private HeldView(ZooKeeper zk, String path, AtomicLong listings) {
    this.zk = zk;
    this.path = path;
    this.listings = listings;
  }

  /**
   * Watches {@code path} on the handle and lists it, both sent now, in that order: the listing sees
   * every change the watch will not report. Not {@linkplain #snapshot() ready} until it answers.
   *
   * @param listings counts the listings sent (a caller's count of its scans)
   */
  static HeldView open(ZooKeeper zk, String path, AtomicLong listings) {
    HeldView v = new HeldView(zk, path, listings);
    zk.addWatch(path, v, AddWatchMode.PERSISTENT_RECURSIVE, (rc, p, ctx) -> v.watchAdded(rc), null);
    v.reload();
    return v;
  }

  ZooKeeper handle() {
    return zk;
  }

  /** The ids held and the version they are at; null until the listing answered, or after close. */
  synchronized Snapshot snapshot() {
    return ready && !closed ? new Snapshot(Set.copyOf(ids), czxid, cversion) : null;
  }

  /** Lists {@code held} again (unless a listing is under way): the view missed events. */
  void reload() {
    synchronized (this) {
      if (closed || loading) {
        return;
      }
      ready = false;
      loading = true;
    }
    listings.incrementAndGet();
    try {
      zk.getChildren(path, false, (rc, p, ctx, children, stat) -> loaded(rc, children, stat), null);
    } catch (RuntimeException e) {
      loaded(Code.CONNECTIONLOSS.intValue(), null, null);
    }
  }

  private synchronized void loaded(int rc, List<String> children, Stat stat) {
    loading = false;
    ids.clear();
    if (rc != Code.OK.intValue()) {
      return; // no held node yet (the namespace's first acquisition creates it: an event), no
      // answer
    }
    for (String child : children) {
      Long id = idOf(child);
      if (id != null) {
        ids.add(id);
      }
    }
    czxid = stat.getCzxid();
    cversion = stat.getCversion();
    ready = true;
  }

  private void watchAdded(int rc) {
    if (rc != Code.OK.intValue()) {
      synchronized (this) {
        ready = false; // no watch, no view: acquisitions list
        closed = true;
      }
    }
  }

  /**
   * A child created or deleted is one change of {@code held}'s child version; data changes (each
   * renewal writes its node) change nothing here. Events sent before the listing's answer are in
   * that listing, and ignored.
   */
  @Override
  public void process(WatchedEvent e) {
    if (e.getType() == Event.EventType.None) {
      if (e.getState() == Event.KeeperState.SyncConnected) {
        reload(); // changes made while disconnected sent no event
      } else if (e.getState() != Event.KeeperState.Disconnected) {
        synchronized (this) {
          ready = false; // expired or closed: this handle's watch is gone
        }
      }
      return;
    }
    String p = e.getPath();
    if (path.equals(p)) {
      if (e.getType() == Event.EventType.NodeCreated
          || e.getType() == Event.EventType.NodeDeleted) {
        reload();
      }
      return;
    }
    if (p == null || !p.startsWith(path + "/") || p.indexOf('/', path.length() + 1) >= 0) {
      return;
    }
    Long id = idOf(p.substring(path.length() + 1));
    synchronized (this) {
      if (!ready) {
        return;
      }
      switch (e.getType()) {
        case NodeCreated -> {
          cversion++;
          if (id != null) {
            ids.add(id);
          }
        }
        case NodeDeleted -> {
          cversion++;
          if (id != null) {
            ids.remove(id);
          }
        }
        default -> {
          // a renewal's write
        }
      }
    }
  }

  /** For tests: the view forgets a held id without the child version changing, as if stale. */
  synchronized void forget(long id) {
    ids.remove(id);
  }

  /** Stops watching (the session's end would also end the watch on the ensemble). */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      ready = false;
    }
    try {
      zk.removeWatches(path, this, WatcherType.PersistentRecursive, true, (rc, p, ctx) -> {}, null);
    } catch (RuntimeException e) {
      // the handle is closed already: so is its watch
    }
  }

  private static Long idOf(String name) {
    try {
      return Long.parseLong(name);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
