-- The priority a caller gave a delayed execution (ScheduleRequest.priority): which of its pool's waiting
-- instances start first on the node that runs it. NULL for every other instance: it has its task's priority.
--
-- InnoDB adds a nullable last column in place (instantly on MySQL 8.0.12+ and MariaDB 10.3+), while writes go on.

ALTER TABLE ${prefix}instance ADD COLUMN priority INTEGER NULL;
