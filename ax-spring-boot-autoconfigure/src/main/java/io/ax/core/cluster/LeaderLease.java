package io.ax.core.cluster;

import java.time.Duration;
import java.util.Optional;

/**
 * The one lease that makes a node the leader, held in a store every node shares. Expiry is measured on the store's
 * own clock (the database's, read inside each statement), never on a node's, so a node whose clock is skewed can
 * neither steal nor keep the lease. A lease is held while the store's clock is before its expiry, and expired from
 * that instant on. Every takeover increments the epoch, the fencing token that the leader's writes
 * carry. Implementations are thread-safe.
 */
public interface LeaderLease {

    /**
     * Takes the lease for {@code node} when no one holds it or its holder's lease has expired (store clock); a
     * takeover increments the epoch. When {@code node} already holds an unexpired lease, extends it at the same
     * epoch.
     *
     * @return the lease now held, or empty when another node holds an unexpired one
     */
    Optional<Lease> acquire(String node, Duration duration);

    /**
     * Extends a lease that is still held at its epoch and has not expired.
     *
     * @return the extended lease, or empty when it was lost (expired, taken over, released)
     */
    Optional<Lease> renew(Lease lease, Duration duration);

    /** Ends a lease at once, if still held at its epoch, so that a standby takes over without waiting for expiry. */
    void release(Lease lease);

    /** Who holds the lease now, as the store sees it. */
    LeaderInfo current();

    /**
     * After the store went back in time: when the lease's epoch is below {@code seen} (the highest a node has seen),
     * sets it to {@code seen} and ends the lease at once, so that the next holder's epoch is above any granted in the
     * history the store lost. Never lowers the epoch. The default does nothing: a lease kept in memory does not go
     * back.
     *
     * @return whether the epoch was raised
     */
    default boolean raiseEpoch(long seen) {
        return false;
    }
}
