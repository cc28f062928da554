package io.ax.core.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;

/**
 * A registered node as the store sees it now.
 *
 * @param nodeId its id
 * @param incarnation the process registered under that id
 * @param host where it runs
 * @param startedAt when it started
 * @param lastHeartbeat its last heartbeat, on the store's clock
 * @param heartbeatAge how long ago that was, on the store's clock
 * @param groups the execution groups it serves
 * @param capacityFree how many more instances it could take at its last heartbeat; {@link #LEAVING} for a node that
 *     stops: alive until its running work ends, but to be assigned nothing more
 * @param protocol the cluster protocol it speaks ({@link ClusterProtocol}); {@link ClusterProtocol#LEADER_ASSIGNS}
 *     for a node registered before protocols were recorded
 */
public record NodeStatus(
        String nodeId,
        String incarnation,
        String host,
        Instant startedAt,
        Instant lastHeartbeat,
        Duration heartbeatAge,
        Set<String> groups,
        int capacityFree,
        int protocol) {

    public NodeStatus {
        Objects.requireNonNull(nodeId, "nodeId");
        Objects.requireNonNull(incarnation, "incarnation");
        Objects.requireNonNull(heartbeatAge, "heartbeatAge");
        groups = Set.copyOf(groups);
        ClusterProtocol.require(protocol);
    }

    /** A node of this build's protocol ({@link ClusterProtocol#CURRENT}). */
    public NodeStatus(
            String nodeId,
            String incarnation,
            String host,
            Instant startedAt,
            Instant lastHeartbeat,
            Duration heartbeatAge,
            Set<String> groups,
            int capacityFree) {
        this(
                nodeId,
                incarnation,
                host,
                startedAt,
                lastHeartbeat,
                heartbeatAge,
                groups,
                capacityFree,
                ClusterProtocol.CURRENT);
    }

    /** The capacity a stopping node announces: assign it nothing more. */
    public static final int LEAVING = -1;

    /** Whether the node stops: alive, but to be assigned nothing more. */
    public boolean leaving() {
        return capacityFree == LEAVING;
    }

    /** Whether its heartbeat is younger than {@code lease}. */
    public boolean aliveWithin(Duration lease) {
        return heartbeatAge.compareTo(lease) < 0;
    }
}
