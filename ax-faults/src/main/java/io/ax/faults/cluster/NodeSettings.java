package io.ax.faults.cluster;

import java.nio.file.Path;
import java.time.Duration;

/**
 * What every node of a run is started with.
 *
 * @param java the java executable
 * @param sampleJar the sample application's executable jar
 * @param heap the node's {@code -Xmx}
 * @param workDir where each node process writes its log, {@code <node>-<n>.log}
 * @param database the database's name on the server
 * @param pgHost the database server's host, behind every node's proxy
 * @param pgPort the database server's port
 * @param pgUser its user
 * @param pgPassword its password
 * @param heartbeat {@code ax.cluster.heartbeat}
 * @param lease {@code ax.cluster.lease}
 * @param misfire {@code ax.misfire.threshold}
 * @param redis whether the nodes use Redis (the private server, through each node's own proxy)
 * @param redisPermits whether they keep the permits of their limits on it ({@code ax.redis.permits=true})
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
        Duration heartbeat,
        Duration lease,
        Duration misfire,
        boolean redis,
        boolean redisPermits) {

    /**
     * The ack timeout: below the lease, as the nodes require, and long enough that a busy machine's slow claim is
     * not mistaken for a node that never answers.
     */
    Duration ackTimeout() {
        return lease.multipliedBy(3).dividedBy(5);
    }

    /** The engine's connections: through the node's proxy, with a socket timeout so a held statement fails. */
    String proxiedUrl(int proxyPort) {
        return "jdbc:postgresql://127.0.0.1:" + proxyPort + "/" + database + "?socketTimeout=3&connectTimeout=2";
    }

    /** The recorder's connections: straight to the server. */
    String directUrl() {
        return "jdbc:postgresql://" + pgHost + ":" + pgPort + "/" + database + "?socketTimeout=10";
    }
}
