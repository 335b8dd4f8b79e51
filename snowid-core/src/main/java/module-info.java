/**
 * snowid: unique, time-ordered 64-bit IDs (the Snowflake scheme) without a network round-trip per
 * ID. Exports the API only; implementation classes are package-private.
 */
module io.snowid {
  exports io.snowid;
  exports io.snowid.codec;
  exports io.snowid.node;
  exports io.snowid.lease;

  uses io.snowid.node.NodeIdSource;
  uses io.snowid.lease.LeaseCoordinatorProvider;

  provides io.snowid.lease.LeaseCoordinatorProvider with
      io.snowid.lease.FileLeaseProvider;
}
