-- snowid's lease table for H2 (2.x). One row per node id of a namespace, plus a row per
-- namespace (node_id -1: acquisitions of the namespace lock it; it holds the namespace's limits
-- max_ttl and max_skew, the number of id rows its acquisitions created, and lost_until). Times are
-- Unix milliseconds: expires_at, acquired_at and renewed_at by the database's clock; high_water,
-- prior_high_water and lost_until are ID times reported by the holders; max_ttl and max_skew are
-- durations.
CREATE TABLE IF NOT EXISTS snowid_leases (
  namespace        VARCHAR(255) NOT NULL,
  node_id          BIGINT       NOT NULL,
  instance         VARCHAR(100) NOT NULL,
  host             VARCHAR(255) NOT NULL,
  token            VARCHAR(36),
  expires_at       BIGINT,
  high_water       BIGINT,
  prior_high_water BIGINT,
  acquired_at      BIGINT       NOT NULL,
  renewed_at       BIGINT       NOT NULL,
  max_ttl          BIGINT,
  max_skew         BIGINT,
  id_rows          BIGINT,
  lost_until       BIGINT,
  PRIMARY KEY (namespace, node_id)
);
