-- Partitioned ownership: the partition each instance belongs to (io.ax.core.cluster.Partitions: its task, its
-- workflow run or its key, hashed modulo the count recorded in the partition table), so that the owner of some
-- partitions reads their due and in-flight rows by an index instead of every row. Written with every new row once
-- a node knows the count; NULL in every row written before this version, and in rows written before the count was
-- known, until a node fills them in small batches (InstanceStore.fillPartitions). A row without a partition is in
-- no partition's reads.

ALTER TABLE ${prefix}instance ADD COLUMN partition_id INT;

CREATE INDEX ${prefix}instance_partition_due ON ${prefix}instance (state, partition_id, scheduled_us, id);
