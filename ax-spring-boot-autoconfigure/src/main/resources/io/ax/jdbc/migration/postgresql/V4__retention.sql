-- Retention and the task view.
--
-- Retention deletes finished instances some days after they finished. A final instance changes no more, so its
-- updated_us is the time it finished: (state, updated_us) finds the expired rows of each final state as one range
-- that stops at the batch's LIMIT, however many instances the table holds. Only final rows are indexed (the other
-- vendors cannot say so): the transitions before the end, most of an instance's updates, add nothing to it.
--
-- The task view reads a task's newest instances (task_name = ? ORDER BY scheduled_us DESC LIMIT ?): walked
-- backwards, (task_name, scheduled_us) answers it without sorting the task's rows.
--
-- CONCURRENTLY: tables that never shrank before this version may be large, and a plain CREATE INDEX would stop
-- every write for as long as it builds. Flyway runs this script outside a transaction for it; should it fail, drop
-- the index it names (left INVALID) and start again.
CREATE INDEX CONCURRENTLY ${prefix}instance_finished ON ${prefix}instance (state, updated_us)
    WHERE state IN ('SUCCESS', 'SKIPPED', 'CANCELLED', 'DEAD');

CREATE INDEX CONCURRENTLY ${prefix}instance_task_due ON ${prefix}instance (task_name, scheduled_us);
