-- AX schema for MySQL and MariaDB (InnoDB, utf8mb4). Times are microseconds since 1970-01-01T00:00:00Z (UTC), in BIGINT columns named *_us.

CREATE TABLE ${prefix}task (
    name          VARCHAR(200) NOT NULL PRIMARY KEY,
    trigger_desc  VARCHAR(500) NOT NULL,
    next_fire_us  BIGINT,
    paused        BOOLEAN      NOT NULL DEFAULT FALSE,
    updated_us    BIGINT       NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE ${prefix}instance (
    id            VARCHAR(36)  NOT NULL PRIMARY KEY,
    task_name     VARCHAR(200) NOT NULL,
    scheduled_us  BIGINT       NOT NULL,
    state         VARCHAR(16)  NOT NULL,
    attempt       INT          NOT NULL,
    node          VARCHAR(200) NOT NULL,
    updated_us    BIGINT       NOT NULL,
    CONSTRAINT ${prefix}instance_task_time UNIQUE (task_name, scheduled_us)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE INDEX ${prefix}instance_state_time ON ${prefix}instance (state, scheduled_us);

CREATE TABLE ${prefix}audit (
    id            BIGINT AUTO_INCREMENT PRIMARY KEY,
    instance_id   VARCHAR(36)   NOT NULL,
    from_state    VARCHAR(16),
    to_state      VARCHAR(16)   NOT NULL,
    node          VARCHAR(200)  NOT NULL,
    attempt       INT           NOT NULL,
    at_us         BIGINT        NOT NULL,
    reason        VARCHAR(2000) NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE INDEX ${prefix}audit_instance ON ${prefix}audit (instance_id, id);

CREATE TABLE ${prefix}dead_letter (
    instance_id       VARCHAR(36)  NOT NULL PRIMARY KEY,
    task_name         VARCHAR(200) NOT NULL,
    scheduled_us      BIGINT       NOT NULL,
    params            MEDIUMTEXT   NOT NULL,
    attempts          MEDIUMTEXT   NOT NULL,
    last_stack_trace  MEDIUMTEXT   NOT NULL,
    died_us           BIGINT       NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE INDEX ${prefix}dead_letter_died ON ${prefix}dead_letter (died_us);
