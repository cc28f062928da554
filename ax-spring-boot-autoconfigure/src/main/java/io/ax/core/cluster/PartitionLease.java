package io.ax.core.cluster;

import java.time.Duration;
import java.util.Objects;

/**
 * One partition as the store sees it: its owner (a node id and the incarnation of the process that took it), the
 * epoch of its last move, and whether that owner is alive on the store's clock (its heartbeat younger than the lease
 * it was read with). A partition without an owner has {@code owner} null.
 *
 * @param partition the partition, from 0 to the cluster's partition count - 1
 * @param owner the node that owns it, or null when none does
 * @param incarnation the process of {@code owner} that took it, or null when none owns it
 * @param epoch grows with every move and never goes back: the fencing token of its owner's writes; 0 when never taken
 * @param ownerAlive whether {@code owner}, at {@code incarnation}, heartbeated within the lease (store clock)
 * @param sinceMove how long ago, on the store's clock, it last moved
 */
public record PartitionLease(
        int partition, String owner, String incarnation, long epoch, boolean ownerAlive, Duration sinceMove) {

    public PartitionLease {
        if (partition < 0) {
            throw new IllegalArgumentException("a partition is 0 or more, was " + partition);
        }
        if ((owner == null) != (incarnation == null)) {
            throw new IllegalArgumentException("an owner comes with its incarnation");
        }
        Objects.requireNonNull(sinceMove, "sinceMove");
    }

    /** Whether {@code node}, in its process {@code incarnation}, owns this partition. */
    public boolean ownedBy(String node, String incarnation) {
        return node.equals(owner) && incarnation.equals(this.incarnation);
    }

    /** Whether a node may take it now: nobody owns it, or its owner's heartbeat is older than the lease. */
    public boolean free() {
        return owner == null || !ownerAlive;
    }
}
