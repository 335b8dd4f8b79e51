package io.snowid.zookeeper;

import static io.snowid.zookeeper.Records.NONE;

import io.snowid.lease.AcquireRequest;
import io.snowid.lease.LeaseLimits;
import io.snowid.lease.LeaseTermsException;
import io.snowid.zookeeper.Records.Registry;
import io.snowid.zookeeper.Records.State;
import java.time.Duration;

/**
 * Whether an acquisition can believe what it read, and what the registry and the namespace become:
 * the rules of docs/design.md, "A registry that lost its state", on ZooKeeper's nodes.
 *
 * @param loss why the namespace's ids start after {@code lostUntil}, or {@code ""}
 * @param lostUntil the ID time no holder the ensemble may have forgotten issues after; {@link
 *     Records#NONE} if none
 * @param registry what the registry node becomes
 * @param registryChanged whether it must be written
 * @param state what the namespace's state becomes (its record count not yet raised)
 */
record Judgment(
    String loss, long lostUntil, Registry registry, boolean registryChanged, State state) {

  /**
   * What an acquisition read, by the ensemble's clock.
   *
   * @param now the ensemble's time when it read ({@code mtime} of the clock node it wrote before)
   * @param registry the registry node, or null if it has none
   * @param registryWritten the {@code mtime} of the registry's newest write, or NONE
   * @param state the namespace's state, or null
   * @param written the {@code mtime} of the namespace's newest write, or NONE
   * @param live how many ids of the namespace are held (ephemeral nodes)
   * @param records how many id records the namespace has
   * @param remembered whether the chroot remembers creating the namespace ({@code registry/ns/NS})
   * @param rollback why the ensemble went back to an older state, as this process saw it (its
   *     transaction id is below one confirmed before), or {@code ""}
   */
  record View(
      long now,
      Registry registry,
      long registryWritten,
      State state,
      long written,
      int live,
      int records,
      boolean remembered,
      String rollback) {}

  /**
   * @throws LeaseTermsException if the namespace has other limits and live holders (even in a state
   *     that may be stale: refusing is always safe)
   */
  static Judgment of(View v, AcquireRequest request, String where) {
    long now = v.now();
    long maxTtl = request.limits().maxTtl().toMillis();
    long maxSkew = request.limits().maxSkew().toMillis();
    State st = v.state();
    if (st != null
        && st.maxTtl() != NONE
        && st.maxSkew() != NONE
        && (st.maxTtl() != maxTtl || st.maxSkew() != maxSkew)
        && v.live() > 0) {
      throw new LeaseTermsException(
          request.namespace(),
          where,
          new LeaseLimits(Duration.ofMillis(st.maxTtl()), Duration.ofMillis(st.maxSkew())),
          v.live(),
          request.limits());
    }
    Registry rg = v.registry();
    long registryTtl = rg == null || rg.maxTtl() == NONE ? maxTtl : rg.maxTtl();
    long lostAt = rg == null ? NONE : rg.lostAt();
    String loss = "";
    if (!v.rollback().isEmpty()) {
      loss = v.rollback();
    } else if (rg == null || v.registryWritten() == NONE) {
      loss = "ZooKeeper has no state under the chroot (new, or it lost its data)";
    } else if (now - v.registryWritten() > registryTtl) {
      loss =
          "no write under the chroot for "
              + (now - v.registryWritten())
              + " ms (idle, or ZooKeeper restored an older snapshot)";
    }
    boolean registryChanged = rg == null || rg.maxTtl() == NONE || maxTtl > rg.maxTtl();
    long newRegistryTtl = Math.max(registryTtl, maxTtl);
    if (!loss.isEmpty()) {
      lostAt = now;
      registryChanged = true;
    } else if (st == null || st.maxTtl() == NONE || st.maxSkew() == NONE || v.written() == NONE) {
      if (v.records() > 0) {
        loss = "its records have no state (nodes deleted by hand?)";
      } else if (v.remembered()) {
        loss = "it has no state though the chroot created it (nodes deleted by hand?)";
      }
    } else if (now - v.written() > st.maxTtl()) {
      loss =
          "no write to the namespace for "
              + (now - v.written())
              + " ms (idle, or ZooKeeper restored an older snapshot)";
    } else if (v.records() < st.records()) {
      loss = "records are missing (" + v.records() + " of " + st.records() + ")";
    }
    long lt = maxTtl;
    long ls = maxSkew;
    if (st != null && st.maxTtl() != NONE) {
      lt = Math.max(lt, st.maxTtl());
    }
    if (st != null && st.maxSkew() != NONE) {
      ls = Math.max(ls, st.maxSkew());
    }
    long slack = LeaseLimits.SLACK.toMillis();
    long bound = NONE;
    long records = st == null || st.records() == NONE ? 0 : st.records();
    if (!loss.isEmpty()) {
      bound = now + lt + ls + slack;
      records = v.records();
    } else if (lostAt != NONE && lostAt + lt + ls + slack > now) {
      bound = lostAt + lt + ls + slack;
      // lostAt may be later than now: recorded by a leader whose clock was ahead of this one's
      loss = "ZooKeeper lost the chroot's state " + Math.max(0, now - lostAt) + " ms ago";
    }
    long lostUntil = st == null ? NONE : st.lostUntil();
    if (bound != NONE && (lostUntil == NONE || bound > lostUntil)) {
      lostUntil = bound;
    }
    return new Judgment(
        loss,
        lostUntil,
        new Registry(lostAt, newRegistryTtl),
        registryChanged,
        new State(maxTtl, maxSkew, records, lostUntil));
  }
}
