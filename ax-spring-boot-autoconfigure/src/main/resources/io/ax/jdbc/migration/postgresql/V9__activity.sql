-- The activity rollup behind the operator's charts: per minute, task and engine process, what it ran (fires,
-- outcomes, dead letters) and how late its fires started. Every process writes only its own rows, with the minute's
-- whole counts so far, so a row is replaced, never added to; task_name '*' holds the sum of a process's tasks, so
-- that a chart of the whole cluster reads a row per process and minute; a chart reads one task's range of minutes
-- by the primary key. Rows older than two days are deleted by retention, found by the minute's index.

CREATE TABLE ${prefix}activity (
    minute_us     BIGINT        NOT NULL,
    task_name     VARCHAR(200)  NOT NULL,
    node_id       VARCHAR(200)  NOT NULL,
    writer        VARCHAR(64)   NOT NULL,
    fires         BIGINT        NOT NULL,
    successes     BIGINT        NOT NULL,
    failures      BIGINT        NOT NULL,
    timeouts      BIGINT        NOT NULL,
    dead_letters  BIGINT        NOT NULL,
    lateness      VARCHAR(4000) NOT NULL,
    PRIMARY KEY (task_name, minute_us, node_id, writer)
);

CREATE INDEX ${prefix}activity_minute ON ${prefix}activity (minute_us);
