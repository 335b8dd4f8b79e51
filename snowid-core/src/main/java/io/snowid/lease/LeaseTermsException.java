package io.snowid.lease;

import io.snowid.InvalidSettingException;

/**
 * A holder asked for a namespace with other limits ({@code maxTtl}, {@code maxSkew}) than its live
 * holders use. A namespace has one set: after a loss of the registry's state, a newcomer waits by
 * its own limits, so a holder with larger ones could still issue when it starts. Change them with
 * every holder of the namespace stopped (the next one sets them).
 */
public class LeaseTermsException extends InvalidSettingException {
  private static final long serialVersionUID = 1L;

  /**
   * @param namespace the namespace
   * @param where the coordinator's description, without secrets
   * @param recorded the limits the namespace's live holders use
   * @param liveHolders how many live leases the namespace has
   * @param asked the limits of the refused holder
   */
  public LeaseTermsException(
      String namespace, String where, LeaseLimits recorded, long liveHolders, LeaseLimits asked) {
    this(namespace, where, recorded, liveHolders + " live holder(s)", asked);
  }

  /**
   * @param namespace the namespace
   * @param where the coordinator's description, without secrets
   * @param recorded the limits the namespace's live holders use
   * @param holders who holds the namespace under them, as the coordinator knows it
   * @param asked the limits of the refused holder
   */
  public LeaseTermsException(
      String namespace, String where, LeaseLimits recorded, String holders, LeaseLimits asked) {
    super(
        "maxTtl/maxSkew",
        asked,
        recorded.toString(),
        "namespace "
            + namespace
            + " on "
            + where
            + " has "
            + holders
            + " with "
            + recorded
            + ", and this holder asks for "
            + asked
            + ": every holder of a namespace uses the same maxTtl and maxSkew (set them to the"
            + " namespace's, or change them with every holder of the namespace stopped)");
  }
}
