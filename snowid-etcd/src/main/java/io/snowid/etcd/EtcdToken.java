package io.snowid.etcd;

import io.snowid.node.NodeIdUnavailableException;

/**
 * A lease's token: a random part (in the id's key, proving the acquisition), the etcd lease the key
 * is attached to, and the mod revision of the id's record as this holder last wrote it (a renewal
 * that finds an older one found etcd gone back).
 */
record EtcdToken(String random, long etcdLease, long markRevision) {
  static String of(String random, long etcdLease, long markRevision) {
    return random + "/" + Long.toHexString(etcdLease) + "/" + markRevision;
  }

  static EtcdToken parse(String token) {
    String[] f = token.split("/");
    if (f.length != 3) {
      throw new NodeIdUnavailableException("not a token of an etcd lease: " + token);
    }
    try {
      return new EtcdToken(f[0], Long.parseUnsignedLong(f[1], 16), Long.parseLong(f[2]));
    } catch (NumberFormatException e) {
      throw new NodeIdUnavailableException("not a token of an etcd lease: " + token);
    }
  }
}
