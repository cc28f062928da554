package io.ax.core.engine.writes;

import io.ax.core.Transition;
import io.ax.core.store.NewFire;

/**
 * What guards a decision about a row against a node that no longer may take it: the leader's epoch (the lease row
 * orders the leaders), or the epoch of the row's partition (the partition's row orders its owners), or nothing, for
 * a change only this node can make (the end of its own attempt, a MEMORY instance). The store checks it in the same
 * statement as the write.
 *
 * @param leader the leader epoch the write is conditional on; 0 for none
 * @param partition the epoch of the row's partition the write is conditional on; 0 for none
 */
public record Fence(long leader, long partition) {

    /** No fence: a change only this node can make. */
    public static final Fence NONE = new Fence(0, 0);

    public Fence {
        if (leader < 0 || partition < 0) {
            throw new IllegalArgumentException("a fence's epochs are 0 or more, were " + leader + ", " + partition);
        }
    }

    /** A decision of the leader of {@code epoch}; 0 for none. */
    public static Fence leader(long epoch) {
        return epoch == 0 ? NONE : new Fence(epoch, 0);
    }

    /** A decision of the owner of the row's partition at {@code epoch}; 0 for none. */
    public static Fence partition(long epoch) {
        return epoch == 0 ? NONE : new Fence(0, epoch);
    }

    /** Whether anything fences the decision. */
    public boolean any() {
        return leader > 0 || partition > 0;
    }

    /** The epoch of the decision: the fencing token of the attempts it starts; 0 for none. */
    public long epoch() {
        return leader > 0 ? leader : partition;
    }

    /** {@code change}, assigning its instance to {@code owner} (null for none), as this fence's decision. */
    public Transition assignedTo(Transition change, String owner) {
        Transition t = change.assignedTo(owner, leader);
        return partition > 0 ? t.fencedByPartition(partition) : t;
    }

    /** {@code change}, taken from {@code previous} (null: no node held it) for {@code owner}, as this fence's decision. */
    public Transition takenFrom(Transition change, String previous, String owner) {
        Transition t = change.takenFrom(previous, owner, leader);
        return partition > 0 ? t.fencedByPartition(partition) : t;
    }

    /** {@code fire}, written as this fence's decision (a leader's fence is the write's, not each fire's). */
    public NewFire on(NewFire fire) {
        return partition > 0 ? fire.fencedByPartition(partition) : fire;
    }
}
