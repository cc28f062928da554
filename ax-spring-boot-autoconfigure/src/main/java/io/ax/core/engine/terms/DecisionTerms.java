package io.ax.core.engine.terms;

import io.ax.core.Transition;
import io.ax.core.cluster.FencedOutException;
import io.ax.core.engine.writes.Fence;

/**
 * At which epoch this node may decide for a row, and how a decision taken at that epoch is fenced. The one question
 * that replaces "do I lead, and at which epoch?" wherever the engine decides about a row: a series' next fire, the
 * assignment of a due instance, its skip, its cancellation while its task is paused.
 *
 * <p>A row is named by its partition key ({@link io.ax.core.cluster.Partitions#key}): the task's name for its fires,
 * catch-ups and runs on demand, the run's id for a workflow step, the caller's key (or the id) for a delayed
 * execution. Under {@link #partitioned} a row answers its partition's epoch on this node and a decision carries
 * that partition's fence, checked by the store in the same statement as the write (see {@link
 * Transition#fencedByPartition}).
 *
 * <p>Thread-safe: asked from the dispatch, writer and leader threads.
 */
public interface DecisionTerms {

    /** The epoch at which this node may decide for the rows of {@code partitionKey} now; 0 when it may not. */
    long epochFor(String partitionKey);

    /**
     * The fence of a decision taken at {@code epoch}: the row's partition's; {@link Fence#NONE} for 0 (a MEMORY
     * instance, which no other node can write; an operator's insert).
     */
    Fence fence(long epoch);

    /**
     * The partition of the rows of {@code partitionKey}, as a store's refusal names it ({@link
     * FencedOutException#partition()}); -1 while this node takes no part in the partitions' ownership.
     */
    default int partitionOf(String partitionKey) {
        return -1;
    }

    /** These terms as a {@link Term}: each row's fence at the epoch this node decides it at now. */
    default Term now() {
        return key -> fence(epochFor(key));
    }

    /**
     * A write decided here was refused: the epoch it carried is no longer current. This node stops deciding at once
     * for what the write was fenced by (that partition; a write fenced by the lease, the lease's term).
     */
    void fencedOut(FencedOutException refused);

    /**
     * The fencing token of an attempt its decision started: the epoch the decision carried, whichever fence that
     * was; 0 for none.
     */
    static long epochOf(Transition decision) {
        return decision.fence() > 0 ? decision.fence() : decision.partitionEpoch();
    }

    /**
     * Every row decided by the owner of its partition: the epoch this node owns it at while its heartbeat is fresh, 0
     * otherwise.
     *
     * @param partitions this node's partitions, null until it takes part in their ownership
     * @param leaderFencedOut told when a leader-fenced write is refused (the takeover's, retention's)
     */
    static DecisionTerms partitioned(
            java.util.function.Supplier<io.ax.core.cluster.PartitionTerms> partitions,
            java.util.function.Consumer<FencedOutException> leaderFencedOut) {
        return new PartitionedTerms(partitions, leaderFencedOut);
    }
}
