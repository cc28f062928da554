package io.ax.core.engine.ownership;

/**
 * Who decides for the rows of a cluster: the one leader for every row, or each node for the rows of the partitions it
 * owns (docs/partitioned-ownership.md), the default. An engine's switch while the leader's mode is still tested
 * beside it; not a setting a user meets.
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
