package io.snowid.lease;

/**
 * A holder's request for one node id of a namespace.
 *
 * @param namespace ids are unique within a namespace; a folder, key prefix or column value of the
 *     coordinator (letters, digits and {@code . _ : -})
 * @param size the namespace has the ids {@code [0, size)}
 * @param instance the holder's identity, stable across restarts: it gets the id it held last back
 *     when that id is free
 * @param terms the lease time, the holder's clock and its high-water promise
 */
public record AcquireRequest(String namespace, long size, String instance, LeaseTerms terms) {}
