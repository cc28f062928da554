package io.ax.core.engine.terms;

import io.ax.core.cluster.Partitions;
import io.ax.core.engine.writes.Fence;
import java.util.Map;

/**
 * The epochs one round of decisions is taken at, fixed when the round starts (a takeover, a sweep, the next fire of
 * a series): every write of the round carries the fence of its row's term, so a round that outlives the term it
 * began in (the node lost the lease or the partition, and perhaps took it again at a later epoch) has its writes
 * refused rather than taken for the new term's. Rows of partitions the term does not hold are not its to decide.
 */
@FunctionalInterface
public interface Term {

    /** The fence of this term's decisions about rows of {@code partitionKey}; {@link Fence#NONE} when not its. */
    Fence fenceFor(String partitionKey);

    /** Whether this term decides rows of {@code partitionKey}. */
    default boolean decides(String partitionKey) {
        return fenceFor(partitionKey).any();
    }

    /**
     * The term of an owner of {@code epochs} (partition to the epoch it holds it at) of {@code count} partitions: it
     * decides the rows of those partitions, each decision fenced by its partition's epoch.
     */
    static Term partitions(Map<Integer, Long> epochs, int count) {
        Map<Integer, Long> held = Map.copyOf(epochs);
        return key -> {
            Long epoch = held.get(Partitions.of(key, count));
            return epoch == null ? Fence.NONE : Fence.partition(epoch);
        };
    }
}
