package io.ax.core.cluster;

/**
 * A store's record of the leader epoch that its fenced writes are checked against, for a lease kept elsewhere (on
 * Redis): that lease writes each epoch it grants here before it grants it, so a deposed leader's writes, carrying an
 * older epoch, are refused by the store exactly as with the store's own lease. Implementations are thread-safe.
 */
public interface EpochFence {

    /** The highest epoch the store has recorded; a lease kept elsewhere grants only epochs above it. */
    long highestEpoch();

    /**
     * Records {@code epoch}, held by {@code holder}, when it is above the store's; never lowers it.
     *
     * @return whether it was recorded; false when the store already has this epoch or a higher one
     */
    boolean advance(String holder, long epoch);
}
