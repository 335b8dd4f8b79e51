package io.snowid.torture;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.jute.Record;
import org.apache.zookeeper.ZooDefs.OpCode;
import org.apache.zookeeper.server.ByteBufferInputStream;
import org.apache.zookeeper.server.persistence.FileTxnLog;
import org.apache.zookeeper.server.persistence.TxnLog.TxnIterator;
import org.apache.zookeeper.txn.CreateTxn;
import org.apache.zookeeper.txn.DeleteTxn;
import org.apache.zookeeper.txn.MultiTxn;
import org.apache.zookeeper.txn.SetDataTxn;
import org.apache.zookeeper.txn.Txn;
import org.apache.zookeeper.txn.TxnHeader;

/**
 * The holds of a ZooKeeper registry, from ZooKeeper's transaction log: each ephemeral lease node
 * from the transaction that created it to the one that deleted it or closed its session.
 */
final class ZooKeeperHolds {
  /*
   * Why the transaction log never under-estimates a hold. ZooKeeper stamps each transaction with
   * its own wall clock (the same clock as the harness's, on this machine) when it orders it, and
   * logs it before any client learns its outcome. A lease node is created by one transaction: the
   * holder learns it holds only from the answer, after the stamp, so the hold starts no later
   * than the create's stamp. It stops being the holder's with the transaction that deletes the
   * node (the holder's release, another's removal of an expired node) or closes its session
   * (expiry, close): every such transaction is in the log, none compacted away (the server takes
   * no snapshot during the run, and each rolled-back lifetime's log is kept). A node never
   * deleted holds to the end. The stamps are whole milliseconds: each end is widened by 1 ms.
   *
   * After a rollback a lifetime's log starts with the history it was cut to, so a hold from
   * before the cut is read again there and runs to its end in that lifetime: an over-estimate
   * (the gap between its first end and the rollback), which can only hide a violation, never
   * invent one.
   *
   * The instance comes from the lease node's data (the worker's instance name, w<slot>-<n>); the
   * high-water mark from the persistent record of the same node id, written with the instance
   * and the mark.
   */
  private static final Pattern INSTANCE = Pattern.compile("\\b(w\\d+-\\d+)\\b");
  private static final Pattern MARK = Pattern.compile("\\b(w\\d+-\\d+) (-?\\d+)\\b");

  private final Timeline timeline;
  private final List<Hold> holds = new ArrayList<>();
  private long transactions;
  private int lifetimes;

  /** A lease node while it exists. */
  private static final class Open {
    final String instance;
    final String namespace;
    final long nodeKey;
    final long session;
    final long fromMillis;
    long highWater = Long.MIN_VALUE;

    Open(String instance, String namespace, long nodeKey, long session, long fromMillis) {
      this.instance = instance;
      this.namespace = namespace;
      this.nodeKey = nodeKey;
      this.session = session;
      this.fromMillis = fromMillis;
    }
  }

  ZooKeeperHolds(Timeline timeline) {
    this.timeline = timeline;
  }

  /** Reads one lifetime's log (a {@code version-2} directory). */
  void read(java.nio.file.Path logDir) throws IOException {
    lifetimes++;
    Map<String, Open> open = new HashMap<>(); // path -> lease node
    try (FileTxnLog log = new FileTxnLog(logDir.toFile());
        TxnIterator it = log.read(0)) {
      for (boolean more = it.getHeader() != null; more; more = it.next()) {
        TxnHeader h = it.getHeader();
        transactions++;
        if (h.getType() == OpCode.multi) {
          for (Txn sub : ((MultiTxn) it.getTxn()).getTxns()) {
            Record r = sub(sub);
            if (r != null) {
              apply(h, sub.getType(), r, open);
            }
          }
        } else {
          apply(h, h.getType(), it.getTxn(), open);
        }
      }
    }
    for (Open o : open.values()) {
      holds.add(hold(o, Long.MAX_VALUE));
    }
  }

  private static Record sub(Txn sub) throws IOException {
    Record r =
        switch (sub.getType()) {
          case OpCode.create, OpCode.create2 -> new CreateTxn();
          case OpCode.delete -> new DeleteTxn();
          case OpCode.setData -> new SetDataTxn();
          default -> null;
        };
    if (r != null) {
      ByteBufferInputStream.byteBuffer2Record(ByteBuffer.wrap(sub.getData()), r);
    }
    return r;
  }

  private void apply(TxnHeader h, int type, Record txn, Map<String, Open> open) {
    switch (type) {
      case OpCode.create, OpCode.create2 -> {
        CreateTxn c = (CreateTxn) txn;
        if (c.getEphemeral()) {
          created(h, c.getPath(), c.getData(), open);
        } else {
          marked(c.getPath(), c.getData(), open);
        }
      }
      case OpCode.setData -> {
        SetDataTxn s = (SetDataTxn) txn;
        marked(s.getPath(), s.getData(), open);
      }
      case OpCode.delete -> {
        Open o = open.remove(((DeleteTxn) txn).getPath());
        if (o != null) {
          holds.add(hold(o, h.getTime()));
        }
      }
      case OpCode.closeSession -> {
        for (Iterator<Open> i = open.values().iterator(); i.hasNext(); ) {
          Open o = i.next();
          if (o.session == h.getClientId()) {
            holds.add(hold(o, h.getTime()));
            i.remove();
          }
        }
      }
      default -> {}
    }
  }

  private static void created(TxnHeader h, String path, byte[] data, Map<String, Open> open) {
    String[] segments = path.split("/");
    Long nodeKey = nodeKey(segments);
    Matcher m = INSTANCE.matcher(text(data));
    if (nodeKey == null || segments.length < 3 || !m.find()) {
      return; // not a lease node
    }
    open.put(
        path,
        new Open(m.group(1), segments[segments.length - 3], nodeKey, h.getClientId(), h.getTime()));
  }

  /** A persistent record: the high-water mark its holder may issue to, for the open hold. */
  private static void marked(String path, byte[] data, Map<String, Open> open) {
    String[] segments = path.split("/");
    Long nodeKey = nodeKey(segments);
    Matcher m = MARK.matcher(text(data));
    if (nodeKey == null || segments.length < 3 || !m.find()) {
      return;
    }
    for (Open o : open.values()) {
      if (o.nodeKey == nodeKey
          && o.instance.equals(m.group(1))
          && o.namespace.equals(segments[segments.length - 3])) {
        o.highWater = Math.max(o.highWater, Long.parseLong(m.group(2)));
      }
    }
  }

  private static Long nodeKey(String[] segments) {
    try {
      return Long.parseLong(segments[segments.length - 1]);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static String text(byte[] data) {
    return data == null ? "" : new String(data, StandardCharsets.UTF_8);
  }

  private Hold hold(Open o, long toMillis) {
    return new Hold(
        o.instance,
        o.namespace,
        o.nodeKey,
        timeline.monoOfWall(o.fromMillis) - 1_000,
        toMillis == Long.MAX_VALUE ? Long.MAX_VALUE : timeline.monoOfWall(toMillis) + 1_000,
        o.highWater);
  }

  List<Hold> holds() {
    return holds;
  }

  /** For the report: how much was read. */
  String summary() {
    return transactions + " transactions, " + lifetimes + " server lifetimes";
  }
}
