-- One due-time index where there were two. Every change of an instance's state writes a new entry into every index
-- that holds the state, so each index on it costs every claim, end and retry. V10 added (state, partition_id,
-- scheduled_us, id) beside (state, scheduled_us, id) for the owners of some partitions; one index serves both reads:
-- (state, scheduled_us, id, partition_id) is read as one range in due order, its partitions checked in the index
-- entry (index condition pushdown: no row is read for another owner's due instance), stopping at the LIMIT. An
-- owner walks the other owners' due entries of the window it reads, a small cost beside the writes it saves.
--
-- The rows written without a partition (before a node knew the count) are found by an index of the partition alone:
-- a change of state leaves its entries as they are, so it costs an insert, not every change.
--
-- The new indexes first, in place while writes go on; then the two old ones, which InnoDB drops without a copy.
ALTER TABLE ${prefix}instance ADD INDEX ${prefix}instance_due (state, scheduled_us, id, partition_id);

ALTER TABLE ${prefix}instance ADD INDEX ${prefix}instance_unpartitioned (partition_id);

ALTER TABLE ${prefix}instance DROP INDEX ${prefix}instance_partition_due;

ALTER TABLE ${prefix}instance DROP INDEX ${prefix}instance_state_due;
