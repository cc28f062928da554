package io.ax.core.engine.ownership;

/**
 * Who decides for the rows of a cluster: the one leader for every row, or each node for the rows of the partitions it
 * owns (docs/partitioned-ownership.md). An engine's switch while the partitioned mode is built and tested beside the
 * leader's; not a setting a user meets.
 */
public enum Ownership {

    /** One node, the leader, plans every series, loads every due row and assigns each to a node. */
    LEADER,

    /**
     * Every node plans, loads and runs the rows of the partitions it owns, each decision fenced by its partition's
     * epoch; no row is handed from one node to another.
     */
    PARTITIONED
}
