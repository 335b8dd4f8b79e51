package io.snowid.lease;

/**
 * What a coordinator records with a namespace besides its ids: for operators ({@code snowid
 * leases}) and docs/design.md, "A registry that lost its state".
 *
 * @param limits the limits its holders share
 * @param newestWriteMillis the coordinator's time of the namespace's newest write (Unix ms)
 * @param lostUntilMillis after a loss of the registry's state was found, the ID time no holder of
 *     the namespace issues at or before; {@link Long#MIN_VALUE} if no loss was found
 */
public record NamespaceState(LeaseLimits limits, long newestWriteMillis, long lostUntilMillis) {}
