package io.snowid.lease;

import java.time.Duration;

/**
 * What a holder asks for when it acquires or renews a lease.
 *
 * @param ttl how long the lease lives from now without a renewal
 * @param localNowMillis the holder's clock when it sent the request (Unix ms); a coordinator
 *     without a clock of its own records its times on this clock
 * @param mayIssueUntilMillis the latest ID time the holder may issue before its next renewal; the
 *     coordinator raises the id's high-water mark to it before it answers
 */
public record LeaseTerms(Duration ttl, long localNowMillis, long mayIssueUntilMillis) {
  /** When the lease ends on the holder's clock: {@code localNowMillis + ttl}. */
  public long expiresAtMillis() {
    return localNowMillis + ttl.toMillis();
  }
}
