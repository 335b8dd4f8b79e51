package io.snowid.etcd;

import io.snowid.node.NodeIdUnavailableException;

/**
 * A lease's token: a random part (in the id's key, proving the acquisition), the etcd lease the key
 * is attached to, and of the answer to this holder's last write of the id's record: its revision,
 * the record's mod revision (a renewal that finds an older one found etcd gone back), when it
 * arrived ({@link System#nanoTime()}: the history that lost the write branched off before then) and
 * the cluster that gave it. Meaningful in its own process only.
 */
record EtcdToken(
    String random, long etcdLease, long markRevision, long answeredNanos, long clusterId) {
  /** The token of a write of the record answered by {@code written}. */
  static String of(String random, long etcdLease, EtcdCalls.Answer written) {
    return random
        + "/"
        + Long.toHexString(etcdLease)
        + "/"
        + written.txn().getHeader().getRevision()
        + "/"
        + written.answeredNanos()
        + "/"
        + Long.toHexString(written.txn().getHeader().getClusterId());
  }

  static EtcdToken parse(String token) {
    String[] f = token.split("/");
    if (f.length != 5) {
      throw new NodeIdUnavailableException("not a token of an etcd lease: " + token);
    }
    try {
      return new EtcdToken(
          f[0],
          Long.parseUnsignedLong(f[1], 16),
          Long.parseLong(f[2]),
          Long.parseLong(f[3]),
          Long.parseUnsignedLong(f[4], 16));
    } catch (NumberFormatException e) {
      throw new NodeIdUnavailableException("not a token of an etcd lease: " + token);
    }
  }

  /**
   * The rollback a record at mod revision {@code found}, below {@link #markRevision}, proves in an
   * answer of cluster {@code cluster}: the history answering lacks this holder's write (a record's
   * mod revision never goes down within one history), so it branched off before the write's answer
   * arrived. Undated if another cluster answers: it may have served beside the one that answered
   * the write.
   */
  EtcdHistory.Loss writeGone(String why, long cluster) {
    return new EtcdHistory.Loss(why, cluster == clusterId, answeredNanos);
  }
}
