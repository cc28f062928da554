package io.ax.core.cluster;

import java.time.Instant;
import java.util.Objects;
import java.util.Set;

/**
 * What a node registers when it starts.
 *
 * @param nodeId its id ({@code ax.node-id}), unique among live processes
 * @param incarnation this process's random id: tells a restarted node from its earlier run
 * @param host the host it runs on
 * @param startedAt when this process started
 * @param groups the execution groups it serves
 * @param capacity how many instances it can take at once (threads and queues of its pools)
 * @param protocol the cluster protocol it speaks ({@link ClusterProtocol})
 */
public record NodeInfo(
        String nodeId,
        String incarnation,
        String host,
        Instant startedAt,
        Set<String> groups,
        int capacity,
        int protocol) {

    public NodeInfo {
        Objects.requireNonNull(nodeId, "nodeId");
        Objects.requireNonNull(incarnation, "incarnation");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(startedAt, "startedAt");
        groups = Set.copyOf(groups);
        if (nodeId.isBlank() || nodeId.length() > 200) {
            throw new IllegalArgumentException("a node id has 1 to 200 characters, was '" + nodeId + "'");
        }
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must be >= 0, was " + capacity);
        }
        ClusterProtocol.require(protocol);
    }

    /** A node of this build's protocol ({@link ClusterProtocol#CURRENT}). */
    public NodeInfo(
            String nodeId, String incarnation, String host, Instant startedAt, Set<String> groups, int capacity) {
        this(nodeId, incarnation, host, startedAt, groups, capacity, ClusterProtocol.CURRENT);
    }
}
