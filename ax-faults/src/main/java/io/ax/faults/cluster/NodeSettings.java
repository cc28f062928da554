package io.ax.faults.cluster;

import io.ax.faults.store.PgPair;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What every node of a run is started with.
 *
 * @param java the java executable
 * @param sampleJar the sample application's executable jar
 * @param heap the node's {@code -Xmx}
 * @param workDir where each node process writes its log, {@code <node>-<n>.log}
 * @param database the database's name on the server (on the pair: the store's, and the witness's on the server)
 * @param pgHost the database server's host, behind every node's proxy (on the pair: the witness's)
 * @param pgPort the database server's port (on the pair: the witness's)
 * @param pairPorts the ports of the pair's servers on 127.0.0.1, behind every node's proxies; empty on one server
 * @param pgUser its user
 * @param pgPassword its password
 * @param heartbeat {@code ax.cluster.heartbeat}
 * @param lease {@code ax.cluster.lease}
 * @param misfire {@code ax.misfire.threshold}
 * @param redis whether the nodes use Redis (the private server, through each node's own proxy)
 * @param redisPermits whether they keep the permits of their limits on it ({@code ax.redis.permits=true})
 * @param sentinelNodes the sentinels of the run's Sentinel set ({@code host:port,...}), through which the nodes find
 *     the Redis primary, without a proxy; empty when the run's Redis is one server
 */
public record NodeSettings(
        Path java,
        Path sampleJar,
        String heap,
        Path workDir,
        String database,
        String pgHost,
        int pgPort,
        String pgUser,
        String pgPassword,
        List<Integer> pairPorts,
        Duration heartbeat,
        Duration lease,
        Duration misfire,
        boolean redis,
        boolean redisPermits,
        String sentinelNodes) {

    /**
     * The ack timeout: below the lease, as the nodes require, and long enough that a busy machine's slow claim is
     * not mistaken for a node that never answers.
     */
    Duration ackTimeout() {
        return lease.multipliedBy(3).dividedBy(5);
    }

    /**
     * The engine's connections: through the node's proxies, with a socket timeout so a held statement fails; on the
     * pair, pgjdbc's multi-host URL over the proxies, to whichever server is primary.
     */
    String proxiedUrl(List<Integer> proxyPorts) {
        if (pairPorts.isEmpty()) {
            return "jdbc:postgresql://127.0.0.1:" + proxyPorts.get(0) + "/" + database
                    + "?socketTimeout=3&connectTimeout=2";
        }
        return PgPair.multiHostUrl(proxyPorts, database, "&socketTimeout=3&connectTimeout=2");
    }

    /** Where each node's database proxies lead: the server, or each server of the pair. */
    List<Integer> upstreams() {
        return pairPorts.isEmpty() ? List.of(pgPort) : pairPorts;
    }

    /** The host of the servers behind the database proxies. */
    String upstreamHost() {
        return pairPorts.isEmpty() ? pgHost : "127.0.0.1";
    }

    /** The recorder's connections: straight to the server. */
    String directUrl() {
        return "jdbc:postgresql://" + pgHost + ":" + pgPort + "/" + database + "?socketTimeout=10";
    }
}
