package io.ax.core.engine.terms;

import io.ax.core.cluster.FencedOutException;
import io.ax.core.cluster.PartitionTerms;
import io.ax.core.cluster.Partitions;
import io.ax.core.engine.writes.Fence;
import java.util.function.Consumer;
import java.util.function.Supplier;

/** {@link DecisionTerms#partitioned}: each row by the epoch of its partition on this node. */
final class PartitionedTerms implements DecisionTerms {

    private final Supplier<PartitionTerms> partitions;
    private final Consumer<FencedOutException> leaderFencedOut;

    PartitionedTerms(Supplier<PartitionTerms> partitions, Consumer<FencedOutException> leaderFencedOut) {
        this.partitions = partitions;
        this.leaderFencedOut = leaderFencedOut;
    }

    @Override
    public long epochFor(String partitionKey) {
        PartitionTerms terms = partitions.get();
        return terms == null ? 0 : terms.epoch(Partitions.of(partitionKey, terms.count()));
    }

    @Override
    public int partitionOf(String partitionKey) {
        PartitionTerms terms = partitions.get();
        return terms == null ? -1 : Partitions.of(partitionKey, terms.count());
    }

    @Override
    public Fence fence(long epoch) {
        return Fence.partition(epoch);
    }

    @Override
    public void fencedOut(FencedOutException refused) {
        PartitionTerms terms = partitions.get();
        if (refused.partition() >= 0 && terms != null) {
            // the partition moved: nothing more is decided for it here, before the next ownership round hears of it
            terms.fencedOut(refused.partition(), refused.epoch());
        } else if (refused.partition() == FencedOutException.LEADER) {
            leaderFencedOut.accept(refused);
        }
        // NO_PARTITION: the row has no partition yet (written before the count was known); no term ends
    }
}
