-- The cluster protocol each node speaks (io.ax.core.cluster.ClusterProtocol): a node does not start beside a live
-- node of another protocol. NULL for a row a node wrote before protocols were recorded: it speaks the first one.
--
-- A nullable column without a default is added to the catalog only: no row is rewritten.

ALTER TABLE ${prefix}node ADD COLUMN protocol INTEGER;
