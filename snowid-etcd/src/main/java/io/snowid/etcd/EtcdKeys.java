package io.snowid.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.snowid.InvalidSettingException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The keys of one namespace of a prefix (docs/design.md, "The etcd:// backend", the key table):
 *
 * <pre>
 * P/ns/NS/held/ID   "token instance", attached to the holder's etcd lease: gone when it expires
 * P/ns/NS/mark/ID   "instance highWater base expiresAt released": the id's persistent record
 * P/ns/NS/terms     "maxTtl maxSkew" (ms) of the namespace's holders
 * P/ns/NS/written   the newest write to the namespace (a holder's clock, ms)
 * P/ns/NS/records   how many mark records the namespace created
 * P/ns/NS/lostUntil after a loss was found: no holder issues at or before it (ID time)
 * P/reg/written     the newest write to any namespace of the prefix
 * P/reg/lostAt      when a loss of the prefix's state was last found
 * P/reg/maxTtl      the longest maxTtl any holder of the prefix asked
 * P/reg/cluster     the id of the etcd cluster that wrote the prefix last
 * P/created/NS      the prefix created the namespace: one without state lost it
 * </pre>
 */
final class EtcdKeys {
  private static final Pattern NAMESPACE = Pattern.compile("[A-Za-z0-9._:-]{1,500}");

  final String namespaceRoot;
  final String registryRoot;

  /** Outside both ranges an acquisition reads, so that it reads its own namespace's alone. */
  final String created;

  EtcdKeys(String prefix, String namespace) {
    if (!NAMESPACE.matcher(namespace).matches()) {
      throw new InvalidSettingException("namespace", namespace, "1 to 500 of A-Z a-z 0-9 . _ : -");
    }
    this.namespaceRoot = namespacesRoot(prefix) + namespace + "/";
    this.registryRoot = prefix + "/reg/";
    this.created = prefix + "/created/" + namespace;
  }

  static String namespacesRoot(String prefix) {
    return prefix + "/ns/";
  }

  ByteSequence held(long id) {
    return EtcdCalls.bytes(namespaceRoot + "held/" + id);
  }

  ByteSequence mark(long id) {
    return EtcdCalls.bytes(namespaceRoot + "mark/" + id);
  }

  ByteSequence ns(String field) {
    return EtcdCalls.bytes(namespaceRoot + field);
  }

  ByteSequence registry(String field) {
    return EtcdCalls.bytes(registryRoot + field);
  }

  /**
   * Reads every key of the namespace and of the registry, and whether the prefix created the
   * namespace: two ranges and a key in one transaction.
   */
  List<Op> readAll() {
    return List.of(
        Op.get(EtcdCalls.bytes(namespaceRoot), prefixed()),
        Op.get(EtcdCalls.bytes(registryRoot), prefixed()),
        Op.get(EtcdCalls.bytes(created), GetOption.DEFAULT));
  }

  static GetOption prefixed() {
    return GetOption.builder().isPrefix(true).build();
  }
}
