-- The permits of cluster-wide limits (a group's or task's limit, a mutex): a row per (key, slot), slot below the
-- limit, so the primary key lets at most that many attempts hold a key. A row names the attempt that holds it; it is
-- held only while its instance is RUNNING at that attempt, so the row of an attempt that is over (its node died, its
-- release was lost) is free, and the next claim that needs its slot deletes it with a write conditional on that.
-- Rows are written in the claim's own transaction; they are found by their instance when its attempt gives them back.
-- A rate's row (at most so many starts in any window) has until_us set instead: it is held from its claim until then,
-- on the database's clock, whatever its attempt does, so that a start counts for its whole window; a release leaves it,
-- and the next claim of its slot takes it once it has expired. NULL for the other limits. Indexed for the few expired
-- rows of keys no claim takes again (a task removed, a rate lowered) that releases delete now and then.
CREATE TABLE ${prefix}permit (
    permit_key   VARCHAR(300) NOT NULL,
    slot         INT          NOT NULL,
    instance_id  VARCHAR(36)  NOT NULL,
    attempt      INT          NOT NULL,
    node         VARCHAR(200) NOT NULL,
    acquired_us  BIGINT       NOT NULL,
    until_us     BIGINT,
    PRIMARY KEY (permit_key, slot),
    INDEX ${prefix}permit_instance (instance_id),
    INDEX ${prefix}permit_until (until_us)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
