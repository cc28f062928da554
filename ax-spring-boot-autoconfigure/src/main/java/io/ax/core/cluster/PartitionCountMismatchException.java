package io.ax.core.cluster;

import io.ax.core.AxException;

/**
 * This node is configured with another partition count than the one its cluster's store records. The count is fixed
 * for the life of a store: a series and a delayed task belong to a partition by a hash taken modulo the count, so two
 * counts on one store would give one piece of work two owners.
 */
public final class PartitionCountMismatchException extends AxException {

    private final int recorded;
    private final int configured;

    public PartitionCountMismatchException(int recorded, int configured) {
        super("The cluster's store records " + recorded + " partitions, and this node is configured with "
                + "ax.cluster.partitions=" + configured + ". The count is fixed for a store's life: set "
                + "ax.cluster.partitions=" + recorded + " on every node (or remove the setting if " + recorded
                + " is the default)");
        this.recorded = recorded;
        this.configured = configured;
    }

    /** The count the store records. */
    public int recorded() {
        return recorded;
    }

    /** The count this node was configured with. */
    public int configured() {
        return configured;
    }
}
