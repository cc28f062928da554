-- Partitioned ownership: the partition each instance belongs to (io.ax.core.cluster.Partitions: its task, its
-- workflow run or its key, hashed modulo the count recorded in the partition table), so that the owner of some
-- partitions reads their due and in-flight rows by an index instead of every row. Written with every new row once
-- a node knows the count; NULL in every row written before this version, and in rows written before the count was
-- known, until a node fills them in small batches (InstanceStore.fillPartitions). A row without a partition is in
-- no partition's reads.
--
-- A nullable column without a default is added to the catalog only: no row is rewritten, however large the table.
-- CONCURRENTLY, as in V4: a plain CREATE INDEX would stop every write for as long as it builds. Flyway runs this
-- script outside a transaction for it (see its .conf); should it fail, drop the index it names (left INVALID) and
-- start again: the column is added only if it is missing.
ALTER TABLE ${prefix}instance ADD COLUMN IF NOT EXISTS partition_id INT;

CREATE INDEX CONCURRENTLY ${prefix}instance_partition_due ON ${prefix}instance (state, partition_id, scheduled_us, id);
