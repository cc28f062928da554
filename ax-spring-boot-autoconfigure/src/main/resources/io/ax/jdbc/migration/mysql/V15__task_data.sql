-- The small data tasks keep from one run to the next, whichever node runs the next (an adopted Quartz job's
-- JobDataMap under @PersistJobDataAfterExecution): one row per key. The first write inserts version 1, which the
-- primary key lets one writer win; each later write is an update conditional on the version its writer read, which
-- it moves on by one, so a stale or duplicate run cannot overwrite a newer value. instance_id and fencing_token name
-- the attempt that wrote it. Rows are few (one per job that keeps data) and small, and are never deleted.
-- MEDIUMBLOB holds up to 16 MiB - 1 byte; a value has at most 1 MiB.
CREATE TABLE ${prefix}task_data (
    data_key       VARCHAR(200) NOT NULL PRIMARY KEY,
    version        BIGINT       NOT NULL,
    data_value     MEDIUMBLOB   NOT NULL,
    instance_id    VARCHAR(36)  NOT NULL,
    fencing_token  BIGINT       NOT NULL,
    updated_us     BIGINT       NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
