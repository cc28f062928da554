-- The priority a caller gave a delayed execution (ScheduleRequest.priority): which of its pool's waiting
-- instances start first on the node that runs it. NULL for every other instance: it has its task's priority.
--
-- A nullable column without a default is added to the catalog only: no row is rewritten, however large the table.

ALTER TABLE ${prefix}instance ADD COLUMN priority INTEGER;
