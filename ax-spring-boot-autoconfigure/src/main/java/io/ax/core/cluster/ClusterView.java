package io.ax.core.cluster;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Who makes trigger decisions, as this node sees it.
 *
 * @param nodeId this node
 * @param role this node's role
 * @param leader the node that leads; null when none is known
 * @param epoch the leader's fencing token; grows with each takeover
 * @param liveNodes the nodes known to be alive, this one included
 * @param leaseExpiresAt when the leader's lease runs out unless renewed (store clock); null when none is known
 * @param nodes the live nodes with their heartbeats and free capacity
 */
public record ClusterView(
        String nodeId,
        Role role,
        String leader,
        long epoch,
        List<String> liveNodes,
        Instant leaseExpiresAt,
        List<NodeStatus> nodes) {

    /** A node's part in trigger decisions. */
    public enum Role {
        /** Makes the trigger decisions (and executes, like every node). */
        LEADER,
        /** Executes what the leader assigns; takes over when the leader's lease expires. */
        STANDBY
    }

    public ClusterView {
        Objects.requireNonNull(nodeId, "nodeId");
        Objects.requireNonNull(role, "role");
        liveNodes = List.copyOf(liveNodes);
        nodes = List.copyOf(nodes);
    }

    /** A view without node details. */
    public ClusterView(String nodeId, Role role, String leader, long epoch, List<String> liveNodes) {
        this(nodeId, role, leader, epoch, liveNodes, null, List.of());
    }

    /** Whether this node leads. */
    public boolean isLeader() {
        return role == Role.LEADER;
    }
}
