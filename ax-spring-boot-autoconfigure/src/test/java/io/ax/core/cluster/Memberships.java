package io.ax.core.cluster;

import io.ax.core.clock.AxClock;
import java.time.Instant;
import java.util.Set;

/** Memberships for tests of the cluster's rounds: a node that listens to nothing, serving the default group. */
public final class Memberships {

    /** A listener that ignores leading and following. */
    public static final Membership.Listener NO_LISTENER = new Membership.Listener() {
        @Override
        public void leading(long epoch) {}

        @Override
        public void following() {}
    };

    private Memberships() {}

    /** A membership of node {@code id} on {@code host}, a fresh incarnation, not started. */
    public static Membership of(
            String id,
            String host,
            NodeRegistry registry,
            LeaderLease lease,
            AxClock clock,
            ClusterSettings settings,
            PartitionLeases partitions) {
        return new Membership(
                registry,
                lease,
                clock,
                new NodeInfo(id, id + "-" + System.nanoTime(), host, Instant.now(), Set.of("default"), 4),
                settings,
                NO_LISTENER,
                partitions,
                null);
    }
}
