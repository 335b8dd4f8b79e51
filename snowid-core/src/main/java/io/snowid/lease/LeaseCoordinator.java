package io.snowid.lease;

import io.snowid.node.NodeIdUnavailableException;

/**
 * A registry that leases node ids: each id of a namespace to at most one live holder. A backend
 * implements it, opens it from a {@link LeaseCoordinatorProvider}, and proves it by subclassing
 * snowid-testkit's {@code LeaseCoordinatorContract}; the {@code file:} coordinator of this module
 * is one such backend.
 *
 * <p>Times: {@code expiresAtMillis} and {@code coordinatorNowMillis} are the coordinator's clock;
 * high-water marks are ID times reported by holders. A holder reports, before it may issue up to a
 * time, that time ({@code mayIssueUntilMillis}); the coordinator keeps the maximum per id, and
 * hands it to the next holder, which starts strictly after it.
 */
public interface LeaseCoordinator extends AutoCloseable {
  /**
   * Leases a free or expired id in {@code [0, size)} of the request's namespace: the id its
   * instance held last if that is free, else any. Records the request's {@code mayIssueUntilMillis}
   * as the id's high-water mark before answering, and returns the previous high-water mark in the
   * lease. One round trip to the registry, however large the namespace. A registry that can lose or
   * roll back its state records {@link AcquireRequest#limits()} with the namespace and starts every
   * id after a loss past what they allow (docs/design.md, "A registry that lost its state").
   *
   * @throws NodeIdUnavailableException if every id is held (the message names the namespace and its
   *     size) or the coordinator cannot be reached
   * @throws LeaseTermsException if the namespace's live holders use other limits
   */
  Lease acquire(AcquireRequest request);

  /**
   * Extends a lease by {@code terms.ttl()} from now and raises its high-water mark to {@code
   * terms.mayIssueUntilMillis()}.
   *
   * @throws LeaseTakenException if the lease is no longer this holder's (expired and taken,
   *     released, or its record was changed under it)
   * @throws NodeIdUnavailableException if the coordinator cannot be reached (retry later)
   */
  Lease renew(Lease lease, LeaseTerms terms);

  /** Ends a lease, recording the high-water mark; does nothing if it is not held. Idempotent. */
  void release(Lease lease, long issuedUpToMillis);

  /**
   * Every node id of the namespace that has a record, ordered by id: its holder, state, expiry and
   * high-water mark. Read-only: it changes nothing, renews nothing and takes nothing, whatever the
   * state of the ids. One round trip where the registry allows.
   *
   * @throws io.snowid.InvalidSettingException if the namespace is not a valid name
   * @throws NodeIdUnavailableException if the coordinator cannot be reached
   */
  LeaseListing list(String namespace);

  /**
   * Marks the id released for an operator, keeping its high-water mark (so its next holder still
   * starts after everything it may have carried), but only when its holder is provably gone: for
   * {@code file:}, the lease file's lock is free and its record does not name a live holder whose
   * lease runs; for a network coordinator, the lease expired by the registry's clock. An id that is
   * released already, or has no record, is left as it is. One round trip where the registry allows.
   *
   * @throws LeaseTakenException if a holder may still be alive: the message names the holder and
   *     when its lease ends; nothing is changed
   * @throws NodeIdUnavailableException if the coordinator cannot be reached
   */
  void releaseAbandoned(String namespace, long nodeId);

  /**
   * Every namespace key the registry has records of, in any order: for operators, and for a new
   * holder's check that no live lease stands under a key of snowid's earlier form (leases keyed by
   * configuration instead of by ID space, docs/design.md "The lease"). One round trip where the
   * registry allows. The default knows none.
   *
   * @throws NodeIdUnavailableException if the coordinator cannot be reached
   */
  default java.util.List<String> namespaces() {
    return java.util.List.of();
  }

  /**
   * Whether {@link Lease#coordinatorNowMillis()} is a clock of the coordinator's own, which the
   * holder checks against its clock for skew. False for a coordinator that reports the holder's own
   * clock ({@code localNowMillis}): no skew check, since a step of the holder's clock during a call
   * would only show as skew between two readings of the same clock. Default true.
   */
  default boolean hasOwnClock() {
    return true;
  }

  /** For logs: e.g. {@code file:/var/lib/snowid}. Never includes a password. */
  String describe();

  @Override
  void close();
}
