-- One due-time index where there were two. Every change of an instance's state writes a new entry into every index
-- that holds the state, so each index on it costs every claim, end and retry. V10 added (state, partition_id,
-- scheduled_us, id) beside (state, scheduled_us, id) for the owners of some partitions; one index serves both reads:
-- (state, scheduled_us, id, partition_id) is read as one range in due order, its partitions checked in the index
-- entry (no row is read for another owner's due instance), stopping at the LIMIT. An owner walks the other owners'
-- due entries of the window it reads, a small cost beside the writes it saves.
--
-- The rows written without a partition (before a node knew the count) are found by a partial index, which holds
-- them alone and costs the writes of the others nothing.
--
-- CONCURRENTLY, as in V4 and V10: outside a transaction (see its .conf); should a statement fail, drop the index
-- it names if it was left INVALID and start again (each statement is safe to run again).
CREATE INDEX CONCURRENTLY IF NOT EXISTS ${prefix}instance_due ON ${prefix}instance (state, scheduled_us, id, partition_id);

CREATE INDEX CONCURRENTLY IF NOT EXISTS ${prefix}instance_unpartitioned ON ${prefix}instance (state)
    WHERE partition_id IS NULL;

DROP INDEX CONCURRENTLY IF EXISTS ${prefix}instance_partition_due;

DROP INDEX CONCURRENTLY IF EXISTS ${prefix}instance_state_due;
