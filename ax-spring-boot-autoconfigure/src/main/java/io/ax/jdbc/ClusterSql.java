package io.ax.jdbc;

/**
 * Every statement of the lease and the node registry, with the table prefix and the dialect's clock applied.
 * Parameters are always bound, never inlined. Each time is read from the database's clock ({@code now} below) inside
 * the statement that decides on it, so no node's clock is ever compared with another's.
 */
final class ClusterSql {

    final String acquire;
    final String renew;
    final String release;
    final String readLease;
    final String advanceEpoch;

    final String insertNode;
    final String takeOverNode;
    final String nodeHost;
    final String heartbeat;
    final String nodes;
    final String removeNode;

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

        String node = p + "node";
        insertNode = "INSERT INTO " + node
                + " (node_id, incarnation, host, started_us, heartbeat_us, groups_served, capacity_free)"
                + " VALUES (?, ?, ?, ?, " + now + ", ?, ?)";
        // the same incarnation refreshes its row; another one takes it over only once its heartbeat is stale
        takeOverNode = "UPDATE " + node + " SET incarnation = ?, host = ?, started_us = ?, heartbeat_us = " + now
                + ", groups_served = ?, capacity_free = ?"
                + " WHERE node_id = ? AND (incarnation = ? OR heartbeat_us <= " + now + " - ?)";
        nodeHost = "SELECT host FROM " + node + " WHERE node_id = ?";
        heartbeat = "UPDATE " + node + " SET heartbeat_us = " + now + ", capacity_free = ?"
                + " WHERE node_id = ? AND incarnation = ?";
        nodes = "SELECT node_id, incarnation, host, started_us, heartbeat_us, groups_served, capacity_free, " + now
                + " FROM " + node;
        removeNode = "DELETE FROM " + node + " WHERE node_id = ? AND incarnation = ?";
    }
}
