package io.ax.redis;

/**
 * What a Lua script can tell of the Redis primary it runs on, from {@code INFO replication} (which scripts may call):
 * its replication id, which a primary takes anew when it is promoted from a replica and when it restarts, so a
 * changed id means Redis may have lost writes (a failover to a replica that missed them, a restart without them);
 * and whether it has, or had lately, a replica, to which it could fail over and lose what the replica did not get.
 */
final class Replication {

    /** Sets {@code replid} (the primary's replication id) and {@code info}. */
    static final String REPLID = "local info = redis.call('INFO', 'replication')"
            + " local replid = string.match(info, 'master_replid:(%w+)') or '' ";

    /**
     * Needs {@link #REPLID}; sets {@code replicated}: the primary has a replica, or had one lately (its backlog is on),
     * so that a failover could lose a write it acknowledged.
     */
    static final String REPLICATED = "local replicated = tonumber(string.match(info, 'connected_slaves:(%d+)') or '0')"
            + " > 0 or string.match(info, 'repl_backlog_active:(%d)') == '1' ";

    private Replication() {}
}
