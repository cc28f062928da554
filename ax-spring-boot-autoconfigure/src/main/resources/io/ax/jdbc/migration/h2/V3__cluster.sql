-- Cluster membership: the one lease that makes a node the leader, and a row per running node. Expiry and
-- heartbeats are written with the database's clock, never a node's, so a node whose clock is skewed can neither
-- steal the lease nor look alive when it is not.

-- The row exists from the start, so taking the lease is always a conditional UPDATE of it: two nodes can never both
-- insert the first one. The epoch is the fencing token: it grows with every takeover and never goes back.
CREATE TABLE ${prefix}leader (
    name        VARCHAR(64)  NOT NULL PRIMARY KEY,
    holder      VARCHAR(200),
    epoch       BIGINT       NOT NULL,
    expires_us  BIGINT       NOT NULL,
    renewed_us  BIGINT       NOT NULL
);

INSERT INTO ${prefix}leader (name, holder, epoch, expires_us, renewed_us) VALUES ('leader', NULL, 0, 0, 0);

-- One row per node id, claimed by one process at a time: the incarnation tells a restarted process from its earlier
-- run, so the earlier run's heartbeats and removals no longer touch the row. groups_served is comma-separated
-- (group names have no commas).
CREATE TABLE ${prefix}node (
    node_id        VARCHAR(200)  NOT NULL PRIMARY KEY,
    incarnation    VARCHAR(64)   NOT NULL,
    host           VARCHAR(255)  NOT NULL,
    started_us     BIGINT        NOT NULL,
    heartbeat_us   BIGINT        NOT NULL,
    groups_served  VARCHAR(2000) NOT NULL,
    capacity_free  INT           NOT NULL
);

-- The node an instance is assigned to and the leader epoch of that assignment, so that a deposed leader's writes,
-- which carry an older epoch, can be refused. NULL while unassigned, as every row written before this version is.
ALTER TABLE ${prefix}instance ADD COLUMN owner VARCHAR(200);
ALTER TABLE ${prefix}instance ADD COLUMN epoch BIGINT;
