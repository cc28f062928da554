package io.ax.jdbc;

/**
 * Every statement of the lease, the node registry and the partitions, with the table prefix and the dialect's clock applied.
 * Parameters are always bound, never inlined. Each time is read from the database's clock ({@code now} below) inside
 * the statement that decides on it, so no node's clock is ever compared with another's.
 */
final class ClusterSql {

    final String acquire;
    final String renew;
    final String release;
    final String readLease;
    final String advanceEpoch;
    /** After the store went back: the epoch raised to the highest a node saw, the lease ended at once. */
    final String raiseEpoch;

    final String insertNode;
    final String takeOverNode;
    final String nodeHost;
    final String heartbeat;
    /** A heartbeat written only over one at least as recent as the last the node read back. */
    final String heartbeatNotBefore;

    final String nodes;
    final String removeNode;

    final String countPartitions;
    final String insertPartition;
    final String readPartitions;
    /**
     * The partitions of a list that a process may take, with their epochs: free (no owner, or a dead one) while the
     * taker is alive itself. Followed by the ids as placeholders and a closing parenthesis.
     */
    final String takeablePartitionsPrefix;
    /** One partition taken at the epoch {@link #takeablePartitionsPrefix} read. */
    final String takePartition;
    /** The partitions of a list that a process owns, with their epochs: followed like {@link #takeablePartitionsPrefix}. */
    final String ownedPartitionsPrefix;

    final String releasePartition;
    /** After the store went back: a partition's epoch raised to the highest a node saw, and the partition freed. */
    final String raisePartition;

    final String holdsPartition;
    /** A condition for a fenced write: its partition (1st parameter) is still owned by (2nd) at the epoch (3rd). */
    final String partitionFence;

    ClusterSql(String p, Dialect dialect) {
        String now = dialect.nowMicros();
        String leader = p + "leader";
        // A lease is held while now < expires_us. The epoch is set first: MySQL assigns from left to right and lets
        // later assignments see earlier ones, so the CASE must read holder and expires_us before they change.
        acquire = "UPDATE " + leader
                + " SET epoch = CASE WHEN holder = ? AND expires_us > " + now + " THEN epoch ELSE epoch + 1 END,"
                + " holder = ?, expires_us = " + now + " + ?, renewed_us = " + now
                + " WHERE name = 'leader' AND (holder = ? OR expires_us <= " + now + ")";
        renew = "UPDATE " + leader + " SET expires_us = " + now + " + ?, renewed_us = " + now
                + " WHERE name = 'leader' AND holder = ? AND epoch = ? AND expires_us > " + now;
        // expired as of now, so the next acquire anywhere takes it at once; the holder stays as who last held it
        release = "UPDATE " + leader + " SET expires_us = " + now + " - 1"
                + " WHERE name = 'leader' AND holder = ? AND epoch = ? AND expires_us > " + now;
        readLease = "SELECT holder, epoch, expires_us, " + now + " FROM " + leader + " WHERE name = 'leader'";
        // an epoch granted by a lease kept elsewhere: recorded for the fenced writes, never lowered
        advanceEpoch = "UPDATE " + leader + " SET epoch = ?, holder = ?, renewed_us = " + now
                + " WHERE name = 'leader' AND epoch < ?";
        raiseEpoch = "UPDATE " + leader + " SET epoch = ?, expires_us = " + now + " - 1"
                + " WHERE name = 'leader' AND epoch < ?";

        String node = p + "node";
        insertNode = "INSERT INTO " + node
                + " (node_id, incarnation, host, started_us, heartbeat_us, groups_served, capacity_free, protocol)"
                + " VALUES (?, ?, ?, ?, " + now + ", ?, ?, ?)";
        // the same incarnation refreshes its row; another one takes it over only once its heartbeat is stale
        takeOverNode = "UPDATE " + node + " SET incarnation = ?, host = ?, started_us = ?, heartbeat_us = " + now
                + ", groups_served = ?, capacity_free = ?, protocol = ?"
                + " WHERE node_id = ? AND (incarnation = ? OR heartbeat_us <= " + now + " - ?)";
        nodeHost = "SELECT host FROM " + node + " WHERE node_id = ?";
        heartbeat = "UPDATE " + node + " SET heartbeat_us = " + now + ", capacity_free = ?"
                + " WHERE node_id = ? AND incarnation = ?";
        heartbeatNotBefore = heartbeat + " AND heartbeat_us >= ?";
        nodes = "SELECT node_id, incarnation, host, started_us, heartbeat_us, groups_served, capacity_free, " + now
                + ", protocol FROM " + node;
        removeNode = "DELETE FROM " + node + " WHERE node_id = ? AND incarnation = ?";

        String partition = p + "partition";
        // a partition's owner is alive while its own node row, of the same incarnation, heartbeats within the lease
        String ownerAlive = "EXISTS (SELECT 1 FROM " + node + " n WHERE n.node_id = " + partition + ".owner"
                + " AND n.incarnation = " + partition + ".incarnation AND n.heartbeat_us > " + now + " - ?)";
        countPartitions = "SELECT COUNT(*), COALESCE(MAX(id), -1) FROM " + partition;
        insertPartition = "INSERT INTO " + partition + " (id, owner, incarnation, epoch, moved_us)"
                + " VALUES (?, NULL, NULL, 0, " + now + ")";
        readPartitions = "SELECT id, owner, incarnation, epoch, " + now + " - moved_us," + " CASE WHEN " + ownerAlive
                + " THEN 1 ELSE 0 END FROM " + partition + " ORDER BY id";
        // free (no owner, or a dead one), and the taker alive itself: a process cut off from the store for longer
        // than the lease, whose own row went stale, takes nothing. A plain read: on InnoDB a sub-select of an UPDATE
        // locks the rows it reads, so a take waiting for a partition row (a fenced write in flight holds it) would
        // hold the node rows and stall their heartbeats for as long, and cut live nodes off
        takeablePartitionsPrefix = "SELECT id, epoch FROM " + partition + " WHERE (owner IS NULL OR NOT " + ownerAlive
                + ") AND EXISTS (SELECT 1 FROM " + node + " me WHERE me.node_id = ? AND me.incarnation = ?"
                + " AND me.heartbeat_us > " + now + " - ?) AND id IN (";
        // the epoch read decides: any take in between moved it on. A partition's owner that came back to life since
        // the read loses it all the same, and its fenced writes at the old epoch are refused. The epoch is set first
        // (MySQL assigns from left to right); the WHERE is decided before any of it
        takePartition = "UPDATE " + partition + " SET epoch = epoch + 1, owner = ?, incarnation = ?, moved_us = " + now
                + " WHERE id = ? AND epoch = ?";
        // the epoch stays: the next take moves it on from there, so epochs only grow
        releasePartition = "UPDATE " + partition + " SET owner = NULL, incarnation = NULL, moved_us = " + now
                + " WHERE id = ? AND owner = ? AND epoch = ?";
        raisePartition = "UPDATE " + partition + " SET epoch = ?, owner = NULL, incarnation = NULL, moved_us = " + now
                + " WHERE id = ? AND epoch < ?";
        holdsPartition = "SELECT COUNT(*) FROM " + partition + " WHERE id = ? AND owner = ? AND epoch = ?";
        ownedPartitionsPrefix = "SELECT id, epoch, " + now + " - moved_us FROM " + partition
                + " WHERE owner = ? AND incarnation = ? AND id IN (";
        partitionFence = "EXISTS (SELECT 1 FROM " + partition + " WHERE id = ? AND owner = ? AND epoch = ?"
                + dialect.sharedLock() + ")";
    }
}
