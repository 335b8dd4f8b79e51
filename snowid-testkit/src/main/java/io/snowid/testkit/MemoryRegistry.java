package io.snowid.testkit;

import java.util.HashMap;
import java.util.Map;

/** The shared state of one {@code memory:NAME} registry: one entry per namespace and id. */
final class MemoryRegistry {
  /** One node id's lease; {@code token} null when free. Guarded by the registry. */
  static final class Entry {
    String token;
    String instance;
    long expiresAt;
    long highWater = Long.MIN_VALUE;
    String lastInstance;
    io.snowid.lease.LeaseLimits limits;
  }

  private final String name;
  private final Map<String, Map<Long, Entry>> namespaces = new HashMap<>();

  MemoryRegistry(String name) {
    this.name = name;
  }

  String name() {
    return name;
  }

  /** The namespaces with entries. Call with the registry's monitor held. */
  java.util.List<String> names() {
    return java.util.List.copyOf(namespaces.keySet());
  }

  /** The entries of a namespace, created as needed. Call with the registry's monitor held. */
  Map<Long, Entry> namespace(String namespace) {
    return namespaces.computeIfAbsent(namespace, n -> new HashMap<>());
  }
}
