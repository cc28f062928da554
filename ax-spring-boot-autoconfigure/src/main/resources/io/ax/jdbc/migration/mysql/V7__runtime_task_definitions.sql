-- Tasks registered at runtime (AxScheduler.register): one row per task with its definition as text, and the history
-- of every register, update and unregister. The version grows with every change: a node applies a definition it has
-- not seen (a new name, a higher version) and drops a task whose row is gone; an update is conditional on the
-- version it read, so two operators updating at once cannot both win.
--
-- Workflow runs need nothing here: a step's instance is keyed by its run ('@run:' + the root instance's id) in the
-- dedupe_key column, whose unique (task_name, dedupe_key) creates it once per run.

CREATE TABLE ${prefix}task_definition (
    name          VARCHAR(200)  NOT NULL PRIMARY KEY,
    definition    MEDIUMTEXT    NOT NULL,
    version       BIGINT        NOT NULL,
    node          VARCHAR(200)  NOT NULL,
    updated_us    BIGINT        NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE ${prefix}task_definition_audit (
    id            BIGINT AUTO_INCREMENT PRIMARY KEY,
    name          VARCHAR(200)  NOT NULL,
    version       BIGINT        NOT NULL,
    action        VARCHAR(16)   NOT NULL,
    node          VARCHAR(200)  NOT NULL,
    at_us         BIGINT        NOT NULL,
    definition    MEDIUMTEXT
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE INDEX ${prefix}task_definition_audit_name ON ${prefix}task_definition_audit (name, id);
