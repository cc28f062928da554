-- The priority a caller gave a delayed execution (ScheduleRequest.priority): which of its pool's waiting
-- instances start first on the node that runs it. NULL for every other instance: it has its task's priority.

ALTER TABLE ${prefix}instance ADD COLUMN priority INTEGER;
