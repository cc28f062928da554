-- Retention and the task view.
--
-- Retention deletes finished instances some days after they finished. A final instance changes no more, so its
-- updated_us is the time it finished: (state, updated_us) finds the expired rows of each final state as one range
-- that stops at the batch's LIMIT, however many instances the table holds.
--
-- The task view reads a task's newest instances (task_name = ? ORDER BY scheduled_us DESC LIMIT ?): walked
-- backwards, (task_name, scheduled_us) answers it without sorting the task's rows.
--
-- InnoDB adds secondary indexes in place, without copying the table, while writes go on.
ALTER TABLE ${prefix}instance
    ADD INDEX ${prefix}instance_finished (state, updated_us),
    ADD INDEX ${prefix}instance_task_due (task_name, scheduled_us);
