-- Retention and the task view.
--
-- Retention deletes finished instances some days after they finished. A final instance changes no more, so its
-- updated_us is the time it finished: (state, updated_us) finds the expired rows of each final state as one range
-- that stops at the batch's LIMIT, however many instances the table holds.
CREATE INDEX ${prefix}instance_finished ON ${prefix}instance (state, updated_us);

-- The task view reads a task's newest instances (task_name = ? ORDER BY scheduled_us DESC LIMIT ?): walked
-- backwards, this index answers it without sorting the task's rows.
CREATE INDEX ${prefix}instance_task_due ON ${prefix}instance (task_name, scheduled_us);
