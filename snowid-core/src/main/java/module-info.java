/**
 * snowid: unique, time-ordered 64-bit IDs (the Snowflake scheme) without a network round-trip per
 * ID. Exports the API only; implementation classes are package-private.
 */
module io.snowid {
  exports io.snowid;
  exports io.snowid.codec;
  exports io.snowid.node;

  uses io.snowid.node.NodeIdSource;
}
