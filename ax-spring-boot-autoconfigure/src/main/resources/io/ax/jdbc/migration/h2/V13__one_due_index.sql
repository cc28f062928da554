-- One due-time index where there were two: (state, scheduled_us, id, partition_id) serves the reads in due order of
-- every row and of an owner's partitions (checked in the index entry); every index that holds the state costs each
-- change of state. The rows written without a partition (before a node knew the count) are found by an index of the
-- partition alone.
CREATE INDEX ${prefix}instance_due ON ${prefix}instance (state, scheduled_us, id, partition_id);

CREATE INDEX ${prefix}instance_unpartitioned ON ${prefix}instance (partition_id);

DROP INDEX ${prefix}instance_partition_due;

DROP INDEX ${prefix}instance_state_due;
