package io.snowid.etcd;

import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.snowid.node.NodeIdUnavailableException;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one read of a namespace's and its registry's keys found ({@link EtcdKeys#readAll()}), or
 * what a view of them holds ({@link EtcdView}), parsed; with each key's mod revision, which a
 * transaction compares to write only over what it read.
 */
final class EtcdRecords {
  /** An id's persistent record: {@code P/ns/NS/mark/ID}. */
  record Mark(
      String instance, long highWater, long base, long expiresAt, boolean released, long revision) {
    static Mark parse(String value, long revision) {
      String[] f = value.split(" ");
      if (f.length != 5) {
        throw new NodeIdUnavailableException("malformed lease record in etcd: " + value);
      }
      return new Mark(f[0], num(f[1]), num(f[2]), num(f[3]), f[4].equals("1"), revision);
    }

    String value() {
      return instance
          + " "
          + str(highWater)
          + " "
          + str(base)
          + " "
          + str(expiresAt)
          + " "
          + (released ? "1" : "0");
    }
  }

  /** A live holder's key: {@code P/ns/NS/held/ID}, attached to its etcd lease. */
  record Held(String token, String instance, long lease) {
    String value() {
      return token + " " + instance;
    }
  }

  /** A field's value and its mod revision (0 if the key is absent). */
  record Field(String value, long revision) {
    long number() {
      return value == null ? Long.MIN_VALUE : num(value);
    }
  }

  final TreeMap<Long, Held> held = new TreeMap<>();
  final TreeMap<Long, Mark> marks = new TreeMap<>();
  private final Map<String, Field> namespace = new HashMap<>();
  private final Map<String, Field> registry = new HashMap<>();

  /** Whether the prefix remembers creating the namespace ({@code P/created/NS}). */
  final boolean remembered;

  EtcdRecords(EtcdKeys keys, List<GetResponse> reads) {
    this(keys, reads.get(0).getKvs(), reads.get(1).getKvs(), !reads.get(2).getKvs().isEmpty());
  }

  /** The same from the keys themselves: the namespace's, the registry's, and the memory. */
  EtcdRecords(
      EtcdKeys keys,
      Collection<KeyValue> namespaceKeys,
      Collection<KeyValue> registryKeys,
      boolean remembered) {
    for (KeyValue kv : namespaceKeys) {
      String rest = EtcdCalls.text(kv.getKey()).substring(keys.namespaceRoot.length());
      String value = EtcdCalls.text(kv.getValue());
      if (rest.startsWith("held/")) {
        String[] f = value.split(" ", 2);
        held.put(id(rest), new Held(f[0], f.length > 1 ? f[1] : "", kv.getLease()));
      } else if (rest.startsWith("mark/")) {
        marks.put(id(rest), Mark.parse(value, kv.getModRevision()));
      } else {
        namespace.put(rest, new Field(value, kv.getModRevision()));
      }
    }
    for (KeyValue kv : registryKeys) {
      String rest = EtcdCalls.text(kv.getKey()).substring(keys.registryRoot.length());
      registry.put(rest, new Field(EtcdCalls.text(kv.getValue()), kv.getModRevision()));
    }
    this.remembered = remembered;
  }

  private static long id(String rest) {
    return num(rest.substring(rest.indexOf('/') + 1));
  }

  Field namespace(String field) {
    return namespace.getOrDefault(field, new Field(null, 0));
  }

  Field registry(String field) {
    return registry.getOrDefault(field, new Field(null, 0));
  }

  /** "-" is none ({@link Long#MIN_VALUE}). */
  static long num(String s) {
    if (s.equals("-")) {
      return Long.MIN_VALUE;
    }
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      throw new NodeIdUnavailableException("malformed number in an etcd lease record: " + s);
    }
  }

  static String str(long n) {
    return n == Long.MIN_VALUE ? "-" : Long.toString(n);
  }
}
