-- Delayed one-shot tasks: what made an instance, its unique key within its task, and the payload it runs with.
--
-- Before this version an instance was unique per (task, scheduled time). Now it is unique per (task, key): a
-- trigger's fire is keyed '@' + its time in microseconds, a delayed task by its caller's key or not at all (NULL
-- keys never conflict). Existing rows get exactly that fire key, so the old guarantee holds for them unchanged.
-- Their origin is what recovery inferred for them before: the fire the task's next fire time points at is the
-- series' pending fire, any other row was started outside the series.

ALTER TABLE ${prefix}instance ADD COLUMN origin VARCHAR(9) DEFAULT 'ON_DEMAND' NOT NULL;
ALTER TABLE ${prefix}instance ADD COLUMN dedupe_key VARCHAR(200);
ALTER TABLE ${prefix}instance ADD COLUMN payload VARBINARY(16777216);

UPDATE ${prefix}instance AS i
   SET dedupe_key = CONCAT('@', CAST(i.scheduled_us AS VARCHAR(20))),
       origin = CASE WHEN EXISTS (SELECT 1 FROM ${prefix}task AS t
                                   WHERE t.name = i.task_name AND t.next_fire_us = i.scheduled_us)
                     THEN 'SERIES' ELSE 'ON_DEMAND' END;

-- Every writer names the origin; a writer that forgets it should fail, not get a guess.
ALTER TABLE ${prefix}instance ALTER COLUMN origin DROP DEFAULT;

ALTER TABLE ${prefix}instance ADD CONSTRAINT ${prefix}instance_task_key UNIQUE (task_name, dedupe_key);
ALTER TABLE ${prefix}instance DROP CONSTRAINT ${prefix}instance_task_time;

-- Due instances are read page by page in (scheduled time, id) order: with id in the index a page is a range scan
-- that stops at its LIMIT, with no sort, however many instances are pending.
DROP INDEX ${prefix}instance_state_time;
CREATE INDEX ${prefix}instance_state_due ON ${prefix}instance (state, scheduled_us, id);
