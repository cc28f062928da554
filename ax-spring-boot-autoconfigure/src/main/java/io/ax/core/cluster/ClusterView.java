package io.ax.core.cluster;

import java.util.List;
import java.util.Objects;

/**
 * Who makes trigger decisions, as this node sees it. A single node is its own leader at epoch 0.
 *
 * @param nodeId this node
 * @param role this node's role
 * @param leader the node that leads; null when none is known
 * @param epoch the leader's fencing token; grows with each takeover
 * @param liveNodes the nodes known to be alive, this one included
 */
public record ClusterView(String nodeId, Role role, String leader, long epoch, List<String> liveNodes) {

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
    }

    /** The view of a node that runs alone: its own leader, epoch 0, the only live node. */
    public static ClusterView alone(String nodeId) {
        return new ClusterView(nodeId, Role.LEADER, nodeId, 0, List.of(nodeId));
    }

    /** Whether this node leads. */
    public boolean isLeader() {
        return role == Role.LEADER;
    }
}
