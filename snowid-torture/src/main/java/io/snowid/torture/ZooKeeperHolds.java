package io.snowid.torture;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
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
   * The layout is snowid-zookeeper's (docs/design.md, "The zookeeper:// backend"): the lease node
   * ROOT/ns/NS/held/ID holds the holder's token; the id's persistent record ROOT/ns/NS/ids/ID,
   * written in the same transaction, "instance token highWater base timeout". The hold's instance
   * is the record's with the node's token, and its high-water mark the highest such record's.
   */

  private final Timeline timeline;
  private final List<Hold> holds = new ArrayList<>();
  private final Map<String, String[]> records = new HashMap<>(); // NS/ID -> the id's record
  private long transactions;
  private int lifetimes;

  /** A lease node while it exists. */
  private static final class Open {
    String instance;
    String token = "";
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
          // a multi writes an id's record and its lease node together: the record first
          List<Txn> subs = ((MultiTxn) it.getTxn()).getTxns();
          for (boolean recordsPass : new boolean[] {true, false}) {
            for (Txn sub : subs) {
              Record r = sub(sub);
              if (r != null && recordsPass == isRecordWrite(sub.getType(), r)) {
                apply(h, sub.getType(), r, open);
              }
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

  private static boolean isRecordWrite(int type, Record r) {
    return type == OpCode.setData || (r instanceof CreateTxn c && !c.getEphemeral());
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
          recorded(c.getPath(), c.getData(), open);
        }
      }
      case OpCode.setData -> {
        SetDataTxn s = (SetDataTxn) txn;
        recorded(s.getPath(), s.getData(), open);
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

  /** An ephemeral lease node {@code …/NS/held/ID}, "token": its holder by the id's record. */
  private void created(TxnHeader h, String path, byte[] data, Map<String, Open> open) {
    String[] segments = path.split("/");
    Long nodeKey = nodeKey(segments);
    if (nodeKey == null || segments.length < 3 || !segments[segments.length - 2].equals("held")) {
      return;
    }
    String namespace = segments[segments.length - 3];
    String[] record = records.get(namespace + "/" + nodeKey);
    String token = text(data).trim();
    Open o =
        new Open(
            record != null && record[1].equals(token) ? record[0] : "?",
            namespace,
            nodeKey,
            h.getClientId(),
            h.getTime());
    o.token = token;
    open.put(path, o);
    if (record != null && record[1].equals(token)) {
      o.highWater = highWater(record);
    }
  }

  /**
   * An id's persistent record {@code …/NS/ids/ID}, "instance token highWater base timeout": the
   * holder of the node with that token, and the high-water mark it may issue to.
   */
  private void recorded(String path, byte[] data, Map<String, Open> open) {
    String[] segments = path.split("/");
    Long nodeKey = nodeKey(segments);
    String[] f = text(data).trim().split(" ");
    if (nodeKey == null
        || segments.length < 3
        || !segments[segments.length - 2].equals("ids")
        || f.length < 3) {
      return;
    }
    String namespace = segments[segments.length - 3];
    records.put(namespace + "/" + nodeKey, f);
    for (Open o : open.values()) {
      if (o.nodeKey == nodeKey && o.namespace.equals(namespace) && o.token.equals(f[1])) {
        if (o.instance.equals("?")) {
          o.instance = f[0];
        }
        o.highWater = Math.max(o.highWater, highWater(f));
      }
    }
  }

  private static long highWater(String[] record) {
    try {
      return Long.parseLong(record[2]);
    } catch (NumberFormatException e) {
      return Long.MIN_VALUE; // "-": none
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
