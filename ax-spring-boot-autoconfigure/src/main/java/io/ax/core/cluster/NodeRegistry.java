package io.ax.core.cluster;

import java.util.List;

/**
 * The nodes of a cluster, each with a heartbeat written on the store's clock. A node whose heartbeat is older than
 * the lease is dead. Implementations are thread-safe.
 */
public interface NodeRegistry {

    /**
     * Registers a starting process under its node id, taking over the row of an earlier incarnation whose
     * heartbeat is older than {@code staleAfter}.
     *
     * @throws NodeIdInUseException when another incarnation with that id has a heartbeat younger than {@code
     *     staleAfter}
     */
    void register(NodeInfo node, java.time.Duration staleAfter);

    /**
     * Records a heartbeat now (store clock) with the node's free capacity, or {@link NodeStatus#LEAVING} for a node
     * that stops.
     *
     * @return false when the node's row is gone or belongs to another incarnation
     */
    boolean heartbeat(String nodeId, String incarnation, int capacityFree);

    /**
     * Records a heartbeat as {@link #heartbeat(String, String, int)} does, but only over one at least as recent as
     * {@code notBefore} (a heartbeat of this node the store returned earlier), so that a store that lost the last
     * heartbeats says so instead of taking the new one. The default does not compare: a registry that cannot go back
     * in time (kept in memory) needs not.
     *
     * @return false when the row is gone, belongs to another incarnation, or holds a heartbeat older than {@code
     *     notBefore}
     */
    default boolean heartbeat(String nodeId, String incarnation, int capacityFree, java.time.Instant notBefore) {
        return heartbeat(nodeId, incarnation, capacityFree);
    }

    /** Every registered node, with the age of its heartbeat on the store's clock, ordered by node id. */
    List<NodeStatus> nodes();

    /**
     * Removes a node's row, if it still belongs to {@code incarnation}: on a normal stop, or when the leader has
     * taken over a dead node's work.
     *
     * @return whether a row was removed
     */
    boolean remove(String nodeId, String incarnation);
}
