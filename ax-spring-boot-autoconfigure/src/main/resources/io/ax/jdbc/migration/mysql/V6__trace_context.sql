-- The trace an instance was scheduled in: the W3C traceparent of the caller of AxScheduler, which each attempt's
-- span continues. NULL for every other instance (trigger fires, callers outside a trace): nothing to read or write.
--
-- InnoDB adds a nullable last column in place (instantly on MySQL 8.0.12+ and MariaDB 10.3+), while writes go on.

ALTER TABLE ${prefix}instance ADD COLUMN trace_parent VARCHAR(128) NULL;
