package io.snowid.zookeeper;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

/**
 * What one coordinator knows of the ensemble's history: the highest transaction id a write of its
 * was confirmed at, the ensemble's time of its latest confirmed write, and the restore it last
 * found or took on. A zxid below the highest is a restore, unless:
 *
 * <ul>
 *   <li>the state still holds the node this coordinator created when it recorded or took on that
 *       restore, and the zxid is not below any write confirmed since: it is that history, whose
 *       loss is recorded;
 *   <li>or the state's {@code lostAt} was recorded more than {@code maxSkew} after every write of
 *       this coordinator was confirmed: another process found the restore that lost them, and its
 *       {@code lostUntil} covers every holder that restore forgot.
 * </ul>
 *
 * Once it recorded one, a state without that node is a restore whatever its zxid. A zxid alone
 * cannot tell that history from a second restore to a later backup; the node, with a random name,
 * and a loss recorded after this coordinator's last write can (docs/design.md, "The zookeeper://
 * backend").
 */
final class Restores {
  /**
   * What an acquisition does about the ensemble's history: {@code record} is null, or the record to
   * create with its transaction and pass to {@link #recorded} (or {@link #settled}).
   */
  record Verdict(String rollback, Record record) {
    /** The history this coordinator wrote in, or one whose loss it knows recorded. */
    static final Verdict CURRENT = new Verdict("", null);
  }

  /**
   * A record of a restore under way: its node, and the highest zxid any write of this coordinator
   * was confirmed at since it was judged (writes of the new history that went ahead of it).
   */
  static final class Record {
    final String node;
    long confirmedSince;

    private Record(String node) {
      this.node = node;
    }
  }

  /** The node of a recorded restore, under the chroot's registry node, and the zxids since. */
  private record Found(String node, long confirmedSince) {}

  private final String registry;
  private final Set<Record> underway = new HashSet<>();
  private long confirmed;
  private long lastWriteMillis = Long.MIN_VALUE;
  private Found found;

  /** Restores of the ensemble whose chroot's registry node is {@code registry}. */
  Restores(String registry) {
    this.registry = registry;
  }

  /** A write of this coordinator was confirmed at {@code zxid}, at the ensemble's time. */
  synchronized void confirmed(long zxid, long mtimeMillis) {
    confirmed = Math.max(confirmed, zxid);
    lastWriteMillis = Math.max(lastWriteMillis, mtimeMillis);
    if (found != null && zxid > found.confirmedSince()) {
      found = new Found(found.node(), zxid);
    }
    for (Record r : underway) {
      r.confirmedSince = Math.max(r.confirmedSince, zxid);
    }
  }

  /** The node to read with the ensemble's zxid, for {@link #judge}; null before any finding. */
  synchronized String foundNode() {
    return found == null ? null : found.node();
  }

  /**
   * Whether the ensemble at {@code zxid} went back from a write this coordinator saw confirmed.
   *
   * @param foundNode the {@link #foundNode} read with it (null if none)
   * @param foundNodeRead whether that node was there
   * @param lostAt the registry's {@code lostAt} read with it ({@link Records#NONE} if none)
   * @param maxSkewMillis the namespace's maxSkew
   * @return {@link Verdict#CURRENT}; or a restore this coordinator records (the reason, and a
   *     record to create with the loss); or one found before, by another process, that it takes on
   *     (no reason, and a record)
   */
  synchronized Verdict judge(
      long zxid, String foundNode, boolean foundNodeRead, long lostAt, long maxSkewMillis) {
    boolean ownHistory = found != null && found.node().equals(foundNode) && foundNodeRead;
    if (found == null ? zxid >= confirmed : ownHistory && zxid >= found.confirmedSince()) {
      return Verdict.CURRENT;
    }
    Record r = new Record(newNode());
    underway.add(r);
    if (recordedAfterEveryWrite(lostAt, maxSkewMillis)) {
      return new Verdict("", r);
    }
    String why =
        found != null && !ownHistory
            ? "the node this process created with the restore it recorded is gone ("
                + found.node()
                + ", zxid now 0x"
                + Long.toHexString(zxid)
                + "): ZooKeeper restored an older snapshot, or the node was deleted"
            : "the ensemble's transaction id went back (0x"
                + Long.toHexString(zxid)
                + ", a write of this process was confirmed at 0x"
                + Long.toHexString(ownHistory ? found.confirmedSince() : confirmed)
                + "): ZooKeeper restored an older snapshot";
    return new Verdict(why, r);
  }

  /**
   * Whether a loss recorded at {@code lostAt} (the ensemble's time) was recorded more than {@code
   * maxSkew} after every write of this coordinator was confirmed: in a state that has that record,
   * any loss of those writes came before it, and its {@code lostUntil} covers every holder that
   * loss forgot.
   */
  synchronized boolean recordedAfterEveryWrite(long lostAt, long maxSkewMillis) {
    return lostAt != Records.NONE
        && lastWriteMillis != Long.MIN_VALUE
        && lostAt > lastWriteMillis + maxSkewMillis;
  }

  private String newNode() {
    return registry + "/restore-" + UUID.randomUUID();
  }

  /** The restore was recorded or taken on, with the record's node created, at {@code zxid}. */
  synchronized void recorded(Record r, long zxid, long mtimeMillis) {
    underway.remove(r);
    confirmed = Math.max(confirmed, zxid);
    lastWriteMillis = Math.max(lastWriteMillis, mtimeMillis);
    found = new Found(r.node, Math.max(zxid, r.confirmedSince));
    for (Record other : underway) {
      other.confirmedSince = Math.max(other.confirmedSince, zxid);
    }
  }

  /** The record's transaction did not go through (or it was recorded): nothing more to merge. */
  synchronized void settled(Record r) {
    underway.remove(r);
  }
}
