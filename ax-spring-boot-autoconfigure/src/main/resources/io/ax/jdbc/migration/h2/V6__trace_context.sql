-- The trace an instance was scheduled in: the W3C traceparent of the caller of AxScheduler, which each attempt's
-- span continues. NULL for every other instance (trigger fires, callers outside a trace): nothing to read or write.

ALTER TABLE ${prefix}instance ADD COLUMN trace_parent VARCHAR(128);
