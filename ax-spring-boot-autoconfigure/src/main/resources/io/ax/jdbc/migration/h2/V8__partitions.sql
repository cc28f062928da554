-- The cluster's partitions: one row each, created by the first node with the count it is configured with (the
-- count is then fixed for the life of the database). A partition is owned by one process (node id and incarnation)
-- at a time, for as long as that process's row in the node table heartbeats within the lease: the row is written
-- only when the partition moves, and its epoch grows with every move and never goes back, the fencing token of its
-- owner's writes.

CREATE TABLE ${prefix}partition (
    id           INT           NOT NULL PRIMARY KEY,
    owner        VARCHAR(200),
    incarnation  VARCHAR(64),
    epoch        BIGINT        NOT NULL,
    moved_us     BIGINT        NOT NULL
);
