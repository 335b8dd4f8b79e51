package io.snowid;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which node values the live generators of this JVM hold, shared by every copy of snowid loaded in
 * it: one claim per (ID space, packed node value, namespace), taken when a generator binds values
 * and given up when it binds others or closes. A static source counts as every namespace.
 */
final class NodeClaims {
  /*
   * The system properties are one per JVM, whatever the class loader (two web applications in one
   * servlet container each load snowid), and hold strings only: a claim is the property
   * io.snowid.node.<space>/<packed>/<namespace or *>, its value the holder's source and a serial.
   * Check and put run under the Properties' own monitor, so they are atomic for every copy.
   */
  private static final String PREFIX = "io.snowid.node.";
  private static final String EVERY = "*";
  private static final AtomicLong SERIAL = new AtomicLong();

  /**
   * The owners of this copy's claims, by claim value. A generator that no longer holds its values
   * (closed, fenced, past its lease's deadline) or that nobody references any more (collected)
   * cannot issue under them: on a conflict, such a claim is dropped. One explicit GC is asked for,
   * once per conflict, before a claim of this copy is taken for live. A claim of another copy of
   * snowid is always live.
   */
  private static final Map<String, WeakReference<Owner>> OWNERS = new ConcurrentHashMap<>();

  /** The generator behind a claim. */
  interface Owner {
    /** Whether it may still issue under the values it claimed. */
    boolean holdsItsValues();

    /**
     * Its claim on {@code packed} was dropped for a generator from {@code source}: it must never
     * issue under the values of that grant again, whatever its clock reads later. Takes no lock.
     *
     * @return the last time it issued or reserved, past which the new holder starts
     */
    long valuesTaken(long packed, String source);
  }

  private NodeClaims() {}

  /**
   * A claim held; {@link #release} gives it up.
   *
   * @param startAfterMillis the last time a generator whose lapsed claim this one replaced issued,
   *     past which the new holder starts; {@link Long#MIN_VALUE} if none
   */
  record Claim(String key, String value, long startAfterMillis) {
    Claim(String key, String value) {
      this(key, value, Long.MIN_VALUE);
    }
  }

  /**
   * Claims {@code packed} of {@code space} in {@code namespace} (null: every namespace) for a
   * generator whose values come from {@code source}.
   *
   * @param owner the generator; its claim lapses once it no longer holds its values
   * @param conflict two slots: set to the holder's source and its claim when another live generator
   *     holds the values
   * @return the claim, or null when another live generator holds the values
   */
  static Claim claim(
      String space, long packed, String namespace, String source, Owner owner, String[] conflict) {
    Claim c = tryClaim(space, packed, namespace, source, owner, conflict);
    if (c == null && conflict[1] != null && OWNERS.containsKey(conflict[1])) {
      System.gc(); // clears the weak reference of a generator that is gone
      c = tryClaim(space, packed, namespace, source, owner, conflict);
    }
    return c;
  }

  private static Claim tryClaim(
      String space, long packed, String namespace, String source, Owner owner, String[] conflict) {
    String stem = PREFIX + space + "/" + packed + "/";
    String key = stem + (namespace == null ? EVERY : namespace);
    String value =
        source + " #" + SERIAL.incrementAndGet() + "@" + System.identityHashCode(NodeClaims.class);
    List<Owner> lapsed = new ArrayList<>();
    Properties p = System.getProperties();
    synchronized (p) {
      for (Object k : new ArrayList<>(p.keySet())) {
        if (k instanceof String s && s.startsWith(stem)) {
          String ns = s.substring(stem.length());
          if (namespace == null || ns.equals(EVERY) || ns.equals(namespace)) {
            String held = String.valueOf(p.get(s));
            WeakReference<Owner> ref = OWNERS.get(held);
            Owner o = ref == null ? null : ref.get();
            if (ref != null && (o == null || !o.holdsItsValues())) {
              release(new Claim(s, held)); // its generator is gone or holds the values no more
              if (o != null) {
                lapsed.add(o);
              }
              continue;
            }
            int serial = held.lastIndexOf(" #");
            conflict[0] = serial < 0 ? held : held.substring(0, serial);
            conflict[1] = held;
            return null;
          }
        }
      }
      p.put(key, value);
      OWNERS.put(value, new WeakReference<>(owner));
    }
    // Before the new holder issues: a lapsed holder whose clock steps back must not issue again,
    // and the new holder starts past what it issued (its own clock may read earlier).
    long after = Long.MIN_VALUE;
    for (Owner o : lapsed) {
      after = Math.max(after, o.valuesTaken(packed, source));
    }
    return new Claim(key, value, after);
  }

  /** Whether the claim is still in force (not dropped as stale by another generator). */
  static boolean inForce(Claim claim) {
    return claim != null && claim.value().equals(System.getProperties().get(claim.key()));
  }

  /** Gives up a claim; idempotent. */
  static void release(Claim claim) {
    if (claim != null) {
      System.getProperties().remove(claim.key(), claim.value());
      OWNERS.remove(claim.value());
    }
  }
}
