package io.ax.core.cluster;

import io.ax.core.AxIdempotency;
import io.ax.core.clock.TimeReference;
import java.util.Optional;

/**
 * A store that also keeps the cluster's leader lease and node registry, next to the rows the leader's fenced writes
 * change: an engine on such a store takes part in the cluster of every engine on the same store, with no further
 * set-up.
 */
public interface ClusterStore {

    /** The leader lease kept with this store's rows; its epoch fences this store's writes. */
    LeaderLease leaderLease();

    /** The node registry kept with this store's rows. */
    NodeRegistry nodeRegistry();

    /** The partitions kept with this store's rows, whose epochs fence their owners' writes; empty when it keeps none. */
    default Optional<PartitionLeases> partitionLeases() {
        return Optional.empty();
    }

    /** How nodes on this store signal each other; none by default (they poll). */
    default WakeUps wakeUps() {
        return WakeUps.none();
    }

    /**
     * The permits of cluster-wide limits (a group's or task's limit, a mutex) kept with this store's rows, taken in
     * the same transaction as the claims they are for; empty when it keeps none, and a limited task is then refused.
     */
    default Optional<io.ax.core.store.Permits> permits() {
        return Optional.empty();
    }

    /** The idempotency keys kept with this store's rows, shared by its nodes; empty when it keeps none. */
    default Optional<AxIdempotency> idempotency() {
        return Optional.empty();
    }

    /**
     * Which server the store is (its system, its timeline), read every heartbeat to notice a failover or a store that
     * went back in time; empty when it tells none, and a node then compares only its own writes.
     */
    default Optional<StoreIdentity> storeIdentity() {
        return Optional.empty();
    }

    /** The store's own clock, which every node on it reads alike; empty when it has none of its own. */
    default Optional<TimeReference> timeReference() {
        return Optional.empty();
    }
}
