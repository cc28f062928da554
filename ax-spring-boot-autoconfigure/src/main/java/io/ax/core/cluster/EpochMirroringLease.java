package io.ax.core.cluster;

/**
 * A leader lease kept outside the store (on Redis) that records every epoch it grants in the store's {@link
 * EpochFence} before granting it. An engine whose store's own lease is that fence keeps the store's writes fenced
 * by it, as it does with the store's own lease.
 */
public interface EpochMirroringLease extends LeaderLease {

    /** The store's record that receives this lease's epochs. */
    EpochFence fence();
}
