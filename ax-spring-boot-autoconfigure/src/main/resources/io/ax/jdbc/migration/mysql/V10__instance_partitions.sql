-- Partitioned ownership: the partition each instance belongs to (io.ax.core.cluster.Partitions: its task, its
-- workflow run or its key, hashed modulo the count recorded in the partition table), so that the owner of some
-- partitions reads their due and in-flight rows by an index instead of every row. Written with every new row once
-- a node knows the count; NULL in every row written before this version, and in rows written before the count was
-- known, until a node fills them in small batches (InstanceStore.fillPartitions). A row without a partition is in
-- no partition's reads.
--
-- Two statements, not one: InnoDB adds a nullable last column instantly (MySQL 8.0.12+, MariaDB 10.3+), and a
-- secondary index in place, without copying the table, while writes go on; together they would rebuild the table.
ALTER TABLE ${prefix}instance ADD COLUMN partition_id INT NULL;

ALTER TABLE ${prefix}instance ADD INDEX ${prefix}instance_partition_due (state, partition_id, scheduled_us, id);
