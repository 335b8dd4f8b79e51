package io.snowid.lease;

/**
 * An id an acquisition may take: its lease file, locked by this call, what its record allows, and
 * the id's host-wide claim.
 *
 * @param id the id
 * @param file its lease file, locked
 * @param previous the record found in it; null if there was none or it was damaged
 * @param mustWait whether the newcomer waits out an unknown holder before it issues
 * @param sameInstance whether the record names the asking instance
 * @param claim the id's host-wide claim; {@link HostClaim#NONE} until it is taken
 */
record LeaseCandidate(
    long id,
    LockedFile file,
    LeaseRecord previous,
    boolean mustWait,
    boolean sameInstance,
    HostClaim claim) {
  /** Without its claim yet. */
  LeaseCandidate(
      long id, LockedFile file, LeaseRecord previous, boolean mustWait, boolean sameInstance) {
    this(id, file, previous, mustWait, sameInstance, HostClaim.NONE);
  }

  /**
   * With the id's claim: an unreadable mark in a claim file means an earlier holder on another
   * lease directory is unknown, so it is waited out as one whose record is lost.
   */
  LeaseCandidate withClaim(HostClaim c) {
    return new LeaseCandidate(id, file, previous, mustWait || c.damaged(), sameInstance, c);
  }

  /** Lower is better: the instance's own id, then one free without a wait, then the lowest. */
  int rank() {
    return (sameInstance ? 0 : 2) + (mustWait ? 1 : 0);
  }

  /** Lets a candidate that is not taken go (its lock dropped, its claim given up); null: none. */
  static void abandon(LeaseCandidate c) {
    if (c == null) {
      return;
    }
    try {
      c.file().close();
    } finally {
      c.claim().release();
    }
  }
}
